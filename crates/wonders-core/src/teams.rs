//! The team variant (4, 6 or 8 players; armada.md §2.9; 000 團隊遊戲規則).
//!
//! Teammates sit side by side: seats 2k and 2k+1 form team k ("隊友之間的座位必須是相鄰的").
//! Their land conflicts are in [`crate::conflict`].

/// The team of `seat` (seats 2k and 2k+1 form team k).
#[inline]
pub const fn team_of(seat: usize) -> usize {
    seat / 2
}

/// The teammate of `seat`.
#[inline]
pub const fn teammate(seat: usize) -> usize {
    seat ^ 1
}

/// Whether seats `a` and `b` are on the same team.
#[inline]
pub const fn same_team(a: usize, b: usize) -> bool {
    team_of(a) == team_of(b)
}
