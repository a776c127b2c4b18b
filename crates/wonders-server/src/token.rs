//! Secrets from the operating system's random generator, and their hashes.

use sha2::{Digest, Sha256};

/// Bytes of a seat token: 128 bits.
pub const TOKEN_BYTES: usize = 16;

/// `n` random bytes from the operating system, hex-encoded.
pub fn random_hex(n: usize) -> Result<String, getrandom::Error> {
    let mut buf = vec![0u8; n];
    getrandom::fill(&mut buf)?;
    Ok(hex(&buf))
}

/// A random `u64` from the operating system (for seeds).
pub fn random_u64() -> Result<u64, getrandom::Error> {
    getrandom::u64()
}

/// A new seat token: 128 bits from the operating system, as 32 hex digits.
pub fn new_token() -> Result<String, getrandom::Error> {
    random_hex(TOKEN_BYTES)
}

/// The SHA-256 of a token, hex-encoded: what the store keeps.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bit_hex_and_distinct() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert_eq!(hash_token(&a), hash_token(&a));
        assert_ne!(hash_token(&a), hash_token(&b));
        assert_eq!(hash_token("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
