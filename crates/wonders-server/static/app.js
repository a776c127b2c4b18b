// The 7 Wonders browser client: the lobby (/) and a table (/t/{id}).
// Plain JavaScript, no build step. Every game action comes from the server's `legal` list and is
// sent back as it is; unknown action types are shown as generic buttons.
'use strict';

// ---------------------------------------------------------------- helpers

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const store = {
  get lang() { return localStorage.getItem('wonders.lang') || 'en'; },
  set lang(v) { localStorage.setItem('wonders.lang', v); },
  get name() { return localStorage.getItem('wonders.name') || ''; },
  set name(v) { localStorage.setItem('wonders.name', v); },
  tokens() {
    try { return JSON.parse(localStorage.getItem('wonders.tokens') || '{}'); } catch (e) { return {}; }
  },
  token(table) { return this.tokens()[table] || null; },
  setToken(table, seat, token) {
    const all = this.tokens();
    all[table] = { seat, token };
    localStorage.setItem('wonders.tokens', JSON.stringify(all));
  },
};

const TEXT = {
  newTable: ['New table', '開新桌'], players: ['Players', '玩家人數'], edition: ['Edition', '版本'],
  wonders: ['Wonders', '奇蹟'], random: ['random boards and sides', '隨機奇蹟與面'],
  allA: ['all side A (Day)', '全部 A 面（白天）'], allB: ['all side B (Night)', '全部 B 面（夜晚）'],
  choose: ['players choose the side (2nd ed.)', '玩家自選面（第二版）'],
  seats: ['Seats', '座位'], person: ['a person', '真人'], bot: ['bot', '電腦'],
  yourName: ['Your name', '你的名字'], create: ['Create and sit down', '建立並入座'],
  openTables: ['Open tables', '進行中的牌桌'], finishedTables: ['Finished games', '已結束的遊戲'],
  none: ['none yet', '暫無'], open: ['open', '進入'], table: ['Table', '牌桌'],
  share: ['Invite friends with this link:', '用這個連結邀請朋友：'], copy: ['Copy', '複製'],
  take: ['Take this seat', '坐這裡'], free: ['free', '空位'], you: ['you', '你'],
  waitingSeats: ['Waiting for every seat to be taken.', '等待所有座位坐滿。'],
  age: ['Age', '時代'], turn: ['Turn', '回合'], yourMove: ['Your move', '輪到你了'],
  waitingOthers: ['Waiting for the others…', '等待其他玩家…'], hand: ['Your hand', '你的手牌'],
  build: ['Build', '建造'], stage: ['Wonder stage', '建造奇蹟階段'], discard: ['Discard +3', '棄牌 +3'],
  cannotBuild: ['cannot be built', '無法建造'], ways: ['ways', '種付法'], bank: ['bank', '銀行'],
  nothing: ['no cost', '不用付錢'], freeChain: ['free (chain)', '免費（連鎖）'], freeBy: ['free', '免費'],
  yourCity: ['Your city', '你的城市'], leftN: ['Left neighbour', '左鄰'], rightN: ['Right neighbour', '右鄰'],
  allCities: ['Every city', '所有城市'], log: ['Turn log', '回合紀錄'], scores: ['Final scores', '最終分數'],
  military: ['Military', '軍事'], treasury: ['Treasury', '金錢'], wonder: ['Wonder', '奇蹟'],
  civilian: ['Civilian', '市政'], science: ['Science', '科技'], commercial: ['Commercial', '商業'],
  guilds: ['Guilds', '行會'], total: ['Total', '總分'], rank: ['Rank', '名次'],
  rematch: ['Rematch', '再來一局'], joinRematch: ['Join the rematch', '加入再來一局'],
  record: ['Download the game record', '下載遊戲紀錄'], discardPile: ['Discard pile', '棄牌堆'],
  otherActions: ['Actions', '動作'], spectator: ['You are watching.', '你正在觀戰。'],
  coins: ['coins', '錢幣'], shields: ['shields', '盾牌'], chosen: ['has chosen', '已選'],
  choosing: ['choosing', '選擇中'], over: ['Game over', '遊戲結束'], freeCity: ['Free City', '自由城市'],
  forFreeCity: ['This action is for the Free City.', '這個動作是替自由城市做的。'],
  chainFrom: ['free with', '連鎖自'], live: ['live', '已連線'], reconnecting: ['reconnecting…', '重新連線中…'],
  broken: ['This table could not be restored.', '這張牌桌無法恢復。'], cards: ['cards', '張牌'],
  discardCount: ['in the discard pile', '張在棄牌堆'], pass: ['Pass', '略過'],
  chooseSide: ['Choose side', '選擇面'], left: ['left', '左'], right: ['right', '右'],
  builtX: ['built', '建造了'], stageX: ['built wonder stage', '建造奇蹟階段'], discardedX: ['discarded a card', '棄了一張牌'],
  fromDiscard: ['from the discard pile', '（從棄牌堆）'], passedX: ['passed', '略過'], choseSideX: ['chose side', '選了'], buildDiscarded: ['Build free', '免費建造'], bots: ['bot', '電腦'],
  status_waiting: ['waiting for players', '等待玩家'], status_playing: ['playing', '進行中'],
  status_over: ['over', '已結束'], status_broken: ['broken', '損壞'], winner: ['winner', '勝者'],
};

function t(key) {
  const pair = TEXT[key];
  if (!pair) return key;
  return store.lang === 'zh' ? pair[1] : pair[0];
}

const ROMAN = ['', 'I', 'II', 'III'];
const COLOURS = ['brown', 'grey', 'blue', 'yellow', 'red', 'green', 'purple'];
const RES_NAMES = { W: 'wood', S: 'stone', C: 'clay', O: 'ore', G: 'glass', L: 'loom', P: 'papyrus' };

function banner(message, kind) {
  const b = document.getElementById('banner');
  if (!message) { b.hidden = true; return; }
  b.hidden = false;
  b.className = 'banner ' + (kind || 'error');
  b.textContent = message;
  clearTimeout(banner.timer);
  banner.timer = setTimeout(() => { b.hidden = true; }, 6000);
}

async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = 'Bearer ' + token;
  const resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  if (!resp.ok) {
    const msg = data && data.error ? data.error.message : resp.status + ' ' + resp.statusText;
    throw new Error(msg);
  }
  return data;
}

// ---------------------------------------------------------------- catalog

const catalogs = {};

async function catalog(edition) {
  if (!catalogs[edition]) {
    const data = await api('GET', '/api/catalog/' + edition);
    const cards = new Map();
    for (const c of data.cards) {
      if (!cards.has(c.name)) cards.set(c.name, []);
      cards.get(c.name).push(c);
    }
    const wonders = new Map(data.wonders.map(w => [w.name, w]));
    catalogs[edition] = { cards, wonders };
  }
  return catalogs[edition];
}

function cardDef(cat, name, age) {
  const list = (cat && cat.cards.get(name)) || [];
  return list.find(c => age === undefined || age === null || c.age === age) || list[0] || null;
}

function cardName(cat, name, age) {
  const d = cardDef(cat, name, age);
  return d && store.lang === 'zh' && d.zh ? d.zh : name;
}

function wonderName(cat, name) {
  const w = cat && cat.wonders.get(name);
  return w && store.lang === 'zh' && w.zh ? w.zh : name;
}

function costIcons(coins, letters) {
  const parts = [];
  if (coins) parts.push(h('span', { class: 'coin', title: coins + ' ' + t('coins') }, coins));
  for (const ch of letters || '') {
    parts.push(h('span', { class: 'res res-' + ch, title: RES_NAMES[ch] || ch }, ch));
  }
  if (!parts.length) parts.push(h('span', { class: 'muted' }, '–'));
  return h('span', { class: 'cost' }, parts);
}

function effectText(d) {
  return store.lang === 'zh' && d.effect_zh ? d.effect_zh : d.effect;
}

function cardBox(cat, name, age, extra) {
  const d = cardDef(cat, name, age);
  const colour = d ? d.colour : 'grey';
  const box = h('div', { class: 'card c-' + colour, dataset: { card: name } },
    h('div', { class: 'card-head' },
      h('span', { class: 'card-name' }, cardName(cat, name, age)),
      d ? costIcons(d.coins, d.cost) : null),
    d ? h('div', { class: 'card-effect' }, effectText(d)) : null,
    d && d.chain_from.length
      ? h('div', { class: 'card-chain' }, t('chainFrom') + ' ' + d.chain_from.map(n => cardName(cat, n)).join(', '))
      : null,
    extra || null);
  return box;
}

// ---------------------------------------------------------------- router

let current = null; // the live table page, if any

function route() {
  if (current) { current.close(); current = null; }
  const m = location.pathname.match(/^\/t\/([0-9a-zA-Z]+)\/?$/);
  if (m) { current = new TablePage(m[1]); } else { lobby(); }
}

function go(path) {
  history.pushState(null, '', path);
  route();
}

window.addEventListener('popstate', route);
document.getElementById('lang').addEventListener('click', () => {
  store.lang = store.lang === 'zh' ? 'en' : 'zh';
  paintLangButton();
  if (current) current.render(); else lobby();
});

function paintLangButton() {
  document.getElementById('lang').textContent = store.lang === 'zh' ? 'English' : '中文';
  document.documentElement.lang = store.lang === 'zh' ? 'zh-Hant' : 'en';
}

// ---------------------------------------------------------------- lobby

async function lobby() {
  document.getElementById('conn').textContent = '';
  document.body.dataset.page = 'lobby';
  const app = document.getElementById('app');
  let bots = ['random'];
  try { bots = await api('GET', '/api/bots'); } catch (e) { /* keep the default */ }

  const players = h('select', { id: 'players', name: 'players' },
    [2, 3, 4, 5, 6, 7].map(n => h('option', { value: n, selected: n === 4 }, n)));
  const edition = h('select', { id: 'edition', name: 'edition' },
    h('option', { value: '1e' }, '1st (2010)'), h('option', { value: '2e' }, '2nd (2020)'));
  const wonders = h('select', { id: 'wonders', name: 'wonders' },
    h('option', { value: 'random' }, t('random')), h('option', { value: 'A' }, t('allA')),
    h('option', { value: 'B' }, t('allB')), h('option', { value: 'choose' }, t('choose')));
  const edificeBox = h('input', { id: 'edifice', name: 'edifice', type: 'checkbox' });
  const seats = h('div', { class: 'seat-choices' });
  const name = h('input', { id: 'name', name: 'name', maxlength: 32, placeholder: t('yourName'), value: store.name });
  const paintSeats = () => {
    const old = [...seats.querySelectorAll('select')].map(s => s.value);
    seats.replaceChildren();
    for (let i = 0; i < Number(players.value); i++) {
      const sel = h('select', { id: 'seat-' + i, 'aria-label': t('seats') + ' ' + (i + 1) },
        h('option', { value: '' }, t('person')),
        bots.map(b => h('option', { value: b }, t('bot') + ': ' + b)));
      sel.value = old[i] !== undefined ? old[i] : (i === 0 ? '' : bots[0]);
      seats.append(h('label', { class: 'seat-choice' }, '#' + (i + 1) + ' ', sel));
    }
  };
  players.addEventListener('change', paintSeats);
  paintSeats();

  const create = h('button', { id: 'create', class: 'primary', type: 'submit' }, t('create'));
  const form = h('form', { class: 'panel new-table', onsubmit: async ev => {
    ev.preventDefault();
    create.disabled = true;
    try {
      const who = name.value.trim() || 'Player';
      store.name = who;
      const seatList = [...seats.querySelectorAll('select')].map(s => (s.value ? { bot: s.value } : {}));
      const info = await api('POST', '/api/tables', {
        players: Number(players.value), edition: edition.value, wonders: wonders.value, seats: seatList,
        expansions: edificeBox.checked ? ['edifice'] : [],
      });
      const mine = seatList.findIndex(s => !s.bot);
      if (mine >= 0) {
        const tok = await api('POST', `/api/tables/${info.id}/seats/${mine}`, { name: who });
        store.setToken(info.id, tok.seat, tok.token);
      }
      go('/t/' + info.id);
    } catch (e) {
      banner(e.message);
      create.disabled = false;
    }
  } },
  h('h2', {}, t('newTable')),
  h('div', { class: 'form-grid' },
    h('label', {}, t('players'), players), h('label', {}, t('edition'), edition),
    h('label', {}, t('wonders'), wonders), h('label', {}, t('yourName'), name),
    edificeLobbyOption(edificeBox)),
  h('h3', {}, t('seats')), seats, create);

  const lists = h('div', { class: 'panel tables' }, h('p', { class: 'muted' }, '…'));
  app.replaceChildren(form, lists);
  const paintLists = async () => {
    try {
      const data = await api('GET', '/api/tables');
      const row = tbl => {
        const mine = store.token(tbl.id);
        const taken = tbl.seats.filter(s => s.taken).length;
        return h('li', { class: 'table-row' },
          h('a', { href: '/t/' + tbl.id, onclick: ev => { ev.preventDefault(); go('/t/' + tbl.id); } }, tbl.id),
          ' ', h('span', { class: 'tag' }, tbl.edition), ' ',
          tbl.seats.map(s => s.name || '·').join(', '),
          ' ', h('span', { class: 'muted' }, `${taken}/${tbl.players} · ${t('status_' + tbl.status)}` +
            (tbl.status === 'playing' ? ` · ${t('age')} ${ROMAN[tbl.age] || tbl.age}` : '')),
          mine ? h('span', { class: 'tag you' }, t('you')) : null);
      };
      lists.replaceChildren(
        h('h2', {}, t('openTables')),
        data.open.length ? h('ul', { id: 'open-tables' }, data.open.map(row)) : h('p', { class: 'muted' }, t('none')),
        h('h2', {}, t('finishedTables')),
        data.finished.length ? h('ul', { id: 'finished-tables' }, data.finished.slice(0, 50).map(row))
          : h('p', { class: 'muted' }, t('none')));
    } catch (e) {
      lists.replaceChildren(h('p', { class: 'error' }, e.message));
    }
  };
  paintLists();
}

// ---------------------------------------------------------------- table page

class TablePage {
  constructor(id) {
    this.id = id;
    this.state = null;
    this.cat = null;
    this.pending = false;
    this.open = new Set(); // open payment choosers
    this.closed = false;
    this.retry = 500;
    this.nextId = 1;
    document.body.dataset.page = 'table';
    document.getElementById('app').replaceChildren(h('p', { class: 'muted' }, '…'));
    this.connect();
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/tables/${this.id}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 500;
      document.getElementById('conn').textContent = '● ' + t('live');
      document.getElementById('conn').className = 'conn ok';
      const mine = store.token(this.id);
      if (mine) ws.send(JSON.stringify({ type: 'auth', token: mine.token }));
    };
    ws.onmessage = ev => this.onMessage(JSON.parse(ev.data));
    ws.onclose = () => {
      if (this.closed) return;
      document.getElementById('conn').textContent = '○ ' + t('reconnecting');
      document.getElementById('conn').className = 'conn bad';
      this.pending = false;
      setTimeout(() => { if (!this.closed) this.connect(); }, this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  async onMessage(msg) {
    if (msg.type === 'state') {
      const old = this.state;
      if (!this.cat || !old || old.table.edition !== msg.table.edition) {
        this.cat = await catalog(msg.table.edition);
      }
      if (!old || old.turn_id !== msg.turn_id || old.step !== msg.step) { this.pending = false; this.open.clear(); }
      // The log arrives in pieces: keep what came before `history_from`.
      const before = old && msg.history_from ? (old.history || []).slice(0, msg.history_from) : [];
      msg.history = before.concat(msg.history || []);
      this.state = msg;
      this.render();
    } else if (msg.type === 'accepted') {
      this.pending = false;
    } else if (msg.type === 'error') {
      this.pending = false;
      banner(msg.message);
      if (this.state) this.render();
      if (msg.code === 'forbidden' && msg.id === undefined) {
        // The stored token no longer holds a seat here (an old database): forget it.
        const all = store.tokens();
        delete all[this.id];
        localStorage.setItem('wonders.tokens', JSON.stringify(all));
      }
    }
  }

  send(action) {
    if (this.pending || !this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    this.pending = true;
    this.ws.send(JSON.stringify({ type: 'act', id: this.nextId++, turn_id: this.state.turn_id, action }));
    this.render();
  }

  seatName(i) {
    const s = this.state.table.seats[i];
    if (!s) return t('freeCity');
    return s.name || '#' + (i + 1);
  }

  render() {
    const st = this.state;
    if (!st) return;
    document.body.dataset.status = st.table.status;
    document.body.dataset.turnId = st.turn_id;
    document.body.dataset.step = st.step;
    document.body.dataset.legal = st.legal.length;
    const app = document.getElementById('app');
    const parts = [this.header()];
    if (st.table.status === 'broken') {
      parts.push(h('p', { class: 'error' }, t('broken'), ' ', st.table.error || ''));
    } else if (st.table.status === 'waiting') {
      parts.push(this.seatsPanel());
    } else if (st.view) {
      if (st.table.status === 'over') parts.push(this.scoresPanel());
      parts.push(this.statusPanel());
      if (st.view.projects) parts.push(edificePanel(this));
      if (st.you !== null && st.table.status !== 'over') parts.push(this.handPanel());
      parts.push(this.citiesPanel());
      parts.push(this.logPanel());
    }
    const scroll = window.scrollY;
    app.replaceChildren(...parts);
    window.scrollTo(0, scroll);
  }

  header() {
    const st = this.state;
    const link = location.origin + '/t/' + this.id;
    const input = h('input', { class: 'share-link', readonly: true, value: link, onfocus: e => e.target.select() });
    return h('section', { class: 'panel table-head' },
      h('h1', {}, t('table') + ' ' + this.id, ' ',
        h('span', { class: 'tag' }, st.table.edition), ' ',
        h('span', { class: 'tag' }, st.table.wonders), ' ',
        h('span', { class: 'tag status-' + st.table.status }, t('status_' + st.table.status))),
      st.table.status === 'waiting' ? h('div', { class: 'share' }, t('share'), ' ', input,
        h('button', { type: 'button', onclick: () => {
          input.select();
          if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
        } }, t('copy'))) : null,
      st.you === null && st.table.status !== 'waiting' ? h('p', { class: 'muted' }, t('spectator')) : null);
  }

  seatsPanel() {
    const st = this.state;
    const name = h('input', { id: 'seat-name', maxlength: 32, placeholder: t('yourName'), value: store.name });
    const canTake = st.you === null;
    return h('section', { class: 'panel seats' },
      h('p', {}, t('waitingSeats')),
      canTake ? h('label', {}, t('yourName') + ' ', name) : null,
      h('ul', { class: 'seat-list' }, st.table.seats.map(s => h('li', { class: 'seat' + (s.taken ? ' taken' : '') },
        h('b', {}, '#' + (s.seat + 1)), ' ',
        s.bot ? `${s.name} (${t('bot')})` : (s.name || t('free')),
        st.you === s.seat ? h('span', { class: 'tag you' }, t('you')) : null,
        !s.taken && canTake ? h('button', { class: 'primary take', type: 'button', dataset: { seat: s.seat },
          onclick: async ev => {
            ev.target.disabled = true;
            try {
              const who = name.value.trim() || 'Player';
              store.name = who;
              const tok = await api('POST', `/api/tables/${this.id}/seats/${s.seat}`, { name: who });
              store.setToken(this.id, tok.seat, tok.token);
              this.ws.send(JSON.stringify({ type: 'auth', token: tok.token }));
            } catch (e) { banner(e.message); ev.target.disabled = false; }
          } }, t('take')) : null))));
  }

  statusPanel() {
    const st = this.state;
    const v = st.view;
    const waiting = new Set(st.waiting);
    const phase = v.phase === 'over' ? t('over')
      : `${t('age')} ${ROMAN[v.age] || v.age} · ${t('turn')} ${v.turn}` + (v.phase !== 'choose' ? ` · ${v.phase.replace(/_/g, ' ')}` : '');
    let prompt = null;
    if (st.you !== null && st.table.status === 'playing') {
      prompt = st.legal.length ? h('strong', { class: 'prompt go' }, t('yourMove'))
        : h('span', { class: 'prompt muted' }, t('waitingOthers'));
    }
    return h('section', { class: 'panel status' },
      h('div', { class: 'phase' }, phase, ' ', prompt,
        h('span', { class: 'muted discard-count' }, ` · ${v.discard_size} ${t('discardCount')}`)),
      h('div', { class: 'chips' }, st.table.seats.map((s, i) => h('span', {
        class: 'chip' + (waiting.has(i) ? ' waiting' : ' done') + (st.you === i ? ' me' : ''),
        title: waiting.has(i) ? t('choosing') : t('chosen'),
      }, (waiting.has(i) ? '… ' : '✓ ') + this.seatName(i) + (v.hand_sizes[i] !== undefined ? ` · ${v.hand_sizes[i]}` : '')))));
  }

  paymentText(a, city) {
    const n = this.state.view.cities.length;
    const leftName = this.cityLabel((city + 1) % n);
    const rightName = this.cityLabel((city + n - 1) % n);
    if (a.free) return a.free === 'chain' ? t('freeChain') : `${t('freeBy')} (${a.free.replace(/_/g, ' ')})`;
    const parts = [];
    if (a.left) parts.push(`${a.left} → ${t('left')} ${leftName}`);
    if (a.right) parts.push(`${a.right} → ${t('right')} ${rightName}`);
    if (a.bank) parts.push(`${a.bank} → ${t('bank')}`);
    return (parts.length ? parts.join(', ') : t('nothing')) + edificeActionText(a);
  }

  cityLabel(i) {
    const v = this.state.view;
    if (v.free_city !== undefined && v.free_city === i) return t('freeCity');
    return this.seatName(i);
  }

  // Buttons for one kind of action on one card: one button, or a chooser when there are several
  // ways to pay.
  actionGroup(key, label, actions, city) {
    if (!actions.length) return null;
    const disabled = this.pending;
    if (actions.length === 1) {
      const a = actions[0];
      const pay = (a.type === 'build' || a.type === 'wonder') ? ' · ' + this.paymentText(a, city) : '';
      return h('button', { class: 'act act-' + a.type, type: 'button', disabled, onclick: () => this.send(a) }, label + pay);
    }
    const open = this.open.has(key);
    return h('div', { class: 'chooser' + (open ? ' open' : '') },
      h('button', { class: 'choose', type: 'button', disabled, onclick: () => {
        if (this.open.has(key)) this.open.delete(key); else this.open.add(key);
        this.render();
      } }, `${label} ▾ (${actions.length} ${t('ways')})`),
      open ? h('div', { class: 'options' }, actions.map(a => h('button', {
        class: 'act act-' + a.type, type: 'button', disabled, onclick: () => this.send(a),
      }, this.paymentText(a, city)))) : null);
  }

  genericLabel(a) {
    const base = { pass: t('pass'), choose_side: t('chooseSide'), build_discarded: t('buildDiscarded') }[a.type]
      || a.type.replace(/_/g, ' ');
    const details = Object.entries(a).filter(([k]) => k !== 'type')
      .map(([k, v]) => (k === 'card' ? cardName(this.cat, v, a.age) : k === 'age' ? null : k === 'side' ? v : `${k}: ${v}`))
      .filter(x => x !== null);
    return details.length ? `${base}: ${details.join(', ')}` : base;
  }

  handPanel() {
    const st = this.state;
    const v = st.view;
    const city = v.acting_city !== undefined ? v.acting_city : st.you;
    const byCard = new Map();
    const other = [];
    for (const a of st.legal) {
      if (a.card !== undefined && ['build', 'wonder', 'discard'].includes(a.type)) {
        const key = a.card + '|' + (a.age || '');
        if (!byCard.has(key)) byCard.set(key, []);
        byCard.get(key).push(a);
      } else {
        other.push(a);
      }
    }
    const handCards = (v.hand || []).map((name, i) => {
      const key = [...byCard.keys()].find(k => k.split('|')[0] === name) || name + '|';
      const acts = byCard.get(key) || [];
      byCard.delete(key);
      const builds = acts.filter(a => a.type === 'build');
      const stages = acts.filter(a => a.type === 'wonder');
      const discards = acts.filter(a => a.type === 'discard');
      const age = acts.length && acts[0].age ? acts[0].age : undefined;
      const controls = st.legal.length ? h('div', { class: 'card-actions' },
        builds.length ? this.actionGroup('b' + i, t('build'), builds, city)
          : (acts.length ? h('span', { class: 'cant' }, t('cannotBuild')) : null),
        this.actionGroup('w' + i, t('stage'), stages, city),
        this.actionGroup('d' + i, t('discard'), discards, city)) : null;
      return cardBox(this.cat, name, age || v.age, controls);
    });
    // Cards that are not in the hand (future action types): shown with their actions.
    for (const [key, acts] of byCard) other.push(...acts);
    const discardCards = v.discard ? v.discard.map((name, i) => {
      const acts = other.filter(a => a.card === name);
      return cardBox(this.cat, name, acts.length && acts[0].age ? acts[0].age : undefined,
        h('div', { class: 'card-actions' }, acts.map(a => h('button', {
          class: 'act act-' + a.type, type: 'button', disabled: this.pending, onclick: () => this.send(a),
        }, this.genericLabel(a).split(':')[0]))));
    }) : [];
    const loose = other.filter(a => !(v.discard && a.card !== undefined && v.discard.includes(a.card)));
    return h('section', { class: 'panel hand' },
      h('h2', {}, t('hand'), ' ', h('span', { class: 'muted' }, `(${(v.hand || []).length})`)),
      v.free_city !== undefined && v.acting_city === v.free_city && st.legal.length
        ? h('p', { class: 'note' }, t('forFreeCity')) : null,
      loose.length ? h('div', { class: 'generic' }, h('h3', {}, t('otherActions')), loose.map(a => h('button', {
        class: 'act act-' + a.type, type: 'button', disabled: this.pending, onclick: () => this.send(a),
      }, this.genericLabel(a)))) : null,
      h('div', { class: 'cards' }, handCards),
      discardCards.length ? [h('h3', {}, t('discardPile')), h('div', { class: 'cards' }, discardCards)] : null);
  }

  cityPanel(i, role) {
    const v = this.state.view;
    const c = v.cities[i];
    const cat = this.cat;
    const w = cat.wonders.get(c.wonder);
    const sideIdx = w ? w.sides.findIndex(s => s.label === c.side) : -1;
    const stages = w && sideIdx >= 0 ? w.sides[sideIdx].stages : [];
    const byColour = new Map(COLOURS.map(col => [col, []]));
    for (const name of c.cards) {
      const d = cardDef(cat, name);
      const col = d ? d.colour : 'grey';
      if (!byColour.has(col)) byColour.set(col, []);
      byColour.get(col).push(name);
    }
    const mil = c.military.reduce((a, b) => a + b, 0);
    return h('div', { class: 'city ' + role, dataset: { city: i } },
      h('div', { class: 'city-head' },
        h('b', {}, this.cityLabel(i)),
        role !== 'mine' && role !== 'other' ? h('span', { class: 'muted' }, ' · ' + t(role === 'left' ? 'leftN' : 'rightN')) : null,
        h('span', { class: 'stats' },
          h('span', { class: 'coin', title: t('coins') }, c.coins), ' ',
          h('span', { class: 'shield', title: t('shields') }, '⚔ ' + c.shields), ' ',
          h('span', { class: 'mil' + (mil < 0 ? ' neg' : ''), title: t('military') + ': ' + c.military.join(' ') }, '★ ' + mil))),
      h('div', { class: 'wonder' },
        h('span', { class: 'wonder-name' }, wonderName(cat, c.wonder) + ' ' + c.side + (w ? ' · ' + w.start : '')),
        h('span', { class: 'stages' }, stages.map((s, k) => h('span', {
          class: 'stage' + (k < c.stages ? ' built' : ''), title: effectText(s),
        }, costIcons(0, s.cost), h('small', {}, effectText(s)))))),
      h('div', { class: 'built' }, [...byColour].filter(([, l]) => l.length).map(([col, list]) => h('div', { class: 'row' },
        list.map(name => {
          const d = cardDef(cat, name);
          return h('span', { class: 'mini c-' + col, title: d ? effectText(d) : name }, cardName(cat, name));
        })))));
  }

  citiesPanel() {
    const st = this.state;
    const v = st.view;
    const n = v.cities.length;
    if (st.you === null) {
      return h('section', { class: 'panel cities' }, h('h2', {}, t('allCities')),
        h('div', { class: 'city-grid' }, v.cities.map((_, i) => this.cityPanel(i, 'other'))));
    }
    const me = st.you;
    const left = (me + 1) % n;
    const right = (me + n - 1) % n;
    const others = v.cities.map((_, i) => i).filter(i => i !== me && i !== left && i !== right);
    return h('section', { class: 'panel cities' },
      h('h2', {}, t('yourCity')), this.cityPanel(me, 'mine'),
      h('div', { class: 'neighbours' }, this.cityPanel(right, 'right'), left !== right ? this.cityPanel(left, 'left') : null),
      others.length ? h('details', { class: 'others' }, h('summary', {}, t('allCities') + ` (${others.length})`),
        h('div', { class: 'city-grid' }, others.map(i => this.cityPanel(i, 'other')))) : null);
  }

  logText(e) {
    const who = this.cityLabel(e.seat);
    const pay = [];
    if (e.left) pay.push(`${e.left} → ${t('left')} ${this.cityLabel((e.seat + 1) % this.state.view.cities.length)}`);
    if (e.right) pay.push(`${e.right} → ${t('right')} ${this.cityLabel((e.seat + this.state.view.cities.length - 1) % this.state.view.cities.length)}`);
    if (e.bank) pay.push(`${e.bank} → ${t('bank')}`);
    let what;
    switch (e.played) {
      case 'built': what = `${t('builtX')} ${cardName(this.cat, e.card)}`; break;
      case 'stage': what = `${t('stageX')} ${e.stage}`; break;
      case 'discarded': what = t('discardedX'); break;
      case 'built_discarded': what = `${t('builtX')} ${cardName(this.cat, e.card)} ${t('fromDiscard')}`; break;
      case 'passed': what = t('passedX'); break;
      case 'chose_side': what = `${t('choseSideX')} ${e.card}`; break;
      default: what = edificeLogText(this, e) || (e.played + (e.card ? ' ' + e.card : ''));
    }
    return `${who} ${what}` + (pay.length ? ` (${pay.join(', ')})` : '') + (e.income ? ` · +${e.income}` : '');
  }

  logPanel() {
    const hist = this.state.history || [];
    const groups = [];
    for (const e of hist) {
      const key = e.age + '.' + e.turn;
      if (!groups.length || groups[groups.length - 1].key !== key) groups.push({ key, age: e.age, turn: e.turn, list: [] });
      groups[groups.length - 1].list.push(e);
    }
    groups.reverse();
    return h('section', { class: 'panel log' }, h('h2', {}, t('log')),
      h('div', { class: 'log-list' }, groups.map(g => h('div', { class: 'log-turn' },
        h('b', {}, `${t('age')} ${ROMAN[g.age] || g.age} · ${t('turn')} ${g.turn}`),
        h('ul', {}, g.list.map(e => h('li', {}, this.logText(e))))))));
  }

  scoresPanel() {
    const st = this.state;
    const cats = ['military', 'treasury', 'wonder', 'civilian', 'science', 'commercial', 'guilds',
      ...((st.table.expansions || []).includes('edifice') ? ['edifice'] : []), 'total'];
    const lines = st.scores || [];
    const rematchId = st.table.rematch;
    return h('section', { class: 'panel scores' },
      h('h2', {}, t('scores')),
      h('div', { class: 'table-scroll' }, h('table', { class: 'score-sheet' },
        h('thead', {}, h('tr', {}, h('th', {}, ''), cats.map(c => h('th', {}, t(c))), h('th', {}, t('rank')))),
        h('tbody', {}, lines.map((l, i) => h('tr', { class: (l.rank === 1 ? 'winner' : '') + (st.you === i ? ' me' : '') },
          h('th', {}, this.cityLabel(i)), cats.map(c => h('td', { class: 'cat-' + c }, l[c])),
          h('td', { class: 'rank' }, l.rank === null || l.rank === undefined ? '–' : l.rank)))))),
      h('div', { class: 'after' },
        h('button', { class: 'primary', id: 'rematch', type: 'button', onclick: () => this.rematch() },
          rematchId ? t('joinRematch') : t('rematch')),
        ' ', h('a', { href: `/api/tables/${this.id}/record`, download: `wonders-${this.id}.json` }, t('record'))));
  }

  async rematch() {
    try {
      const info = await api('POST', `/api/tables/${this.id}/rematch`, {});
      const mine = store.token(this.id);
      if (mine && !store.token(info.id)) {
        const seat = info.seats[mine.seat];
        if (seat && !seat.taken) {
          const who = this.seatName(mine.seat);
          const tok = await api('POST', `/api/tables/${info.id}/seats/${mine.seat}`, { name: who });
          store.setToken(info.id, tok.seat, tok.token);
        }
      }
      go('/t/' + info.id);
    } catch (e) { banner(e.message); }
  }
}

// ---------------------------------------------------------------- Edifice (issue 8)
// Self-contained: the lobby option, the projects panel, the stage + take part marks of the
// payment chooser and the log lines of the great projects. Values no printed source confirms are
// marked with a dagger and explained.

function ed(en, zh) { return store.lang === 'zh' ? zh : en; }
TEXT.edifice = ['Edifice', '穹樓'];

function edificeLobbyOption(box) {
  return h('label', { class: 'edifice-option', title: ed(
    'Edifice (2023): great projects built together. Its card values are provisional (no printed source).',
    '穹樓（2023）：共同建造宏偉項目。卡牌數值為暫定（無印刷來源）。') },
  box, ' ', ed('Edifice expansion', '穹樓擴充'));
}

function edificeActionText(a) {
  if (a.type !== 'wonder') return '';
  const parts = [];
  if (a.second_effect) parts.push(ed('second effect', '第二個效果'));
  if (a.pawn_age) parts.push(ed(`Age ${ROMAN[a.pawn_age]} pawn`, `時代${ROMAN[a.pawn_age]}棋子`));
  if (a.take_part) parts.push(ed('+ take part in the great project', '＋參與宏偉項目'));
  return parts.length ? ' · ' + parts.join(' · ') : '';
}

function edificeLogText(page, e) {
  const p = (page.state.view.projects || [])[e.age - 1];
  const name = p ? (store.lang === 'zh' && p.zh ? p.zh : p.name) : ed('the project', '宏偉項目');
  switch (e.played) {
    case 'edifice_took_part': return ed(`took part in ${name}`, `參與了${name}`);
    case 'edifice_ur_pawn': return ed(`took an Age ${ROMAN[e.pawn_age]} pawn (Ur)`, `拿取了時代${ROMAN[e.pawn_age]}的參與棋子（烏爾）`);
    case 'edifice_rewarded': return ed(`${name} completed: gains its reward`, `${name}建造完成：獲得獎勵`);
    case 'edifice_spared': return ed(`${name} failed: holds a pawn, no penalty`, `${name}建造失敗：持有棋子，不受懲罰`);
    case 'edifice_paid': return ed(`${name} failed: pays the penalty`, `${name}建造失敗：承受懲罰`);
    case 'edifice_discarded': return ed(`${name} failed: discards ${cardName(page.cat, e.card)}`, `${name}建造失敗：棄掉${cardName(page.cat, e.card)}`);
    case 'edifice_debt': return ed(`${name} failed: cannot pay, takes a debt token`, `${name}建造失敗：無法支付，拿取負債標記`);
    default: return null;
  }
}

function edificePanel(page) {
  const v = page.state.view;
  const dagger = (p, what) => (p.provisional_values.includes(what)
    ? h('sup', { class: 'provisional', title: ed('provisional: no printed source confirms this value (edifice.md §5)',
      '暫定：沒有印刷來源確認此數值') }, '†') : null);
  const outcome = p => (p.outcome === 'open' ? ed(`${p.pawns_left} pawns left`, `剩${p.pawns_left}個棋子`)
    : p.outcome === 'completed' ? ed('completed', '已完成') : ed('failed', '失敗'));
  const debts = v.cities.map((c, i) => (c.debt && c.debt.length ? `${page.cityLabel(i)}: ${c.debt.map(a => ROMAN[a]).join(' ')}` : null))
    .filter(x => x);
  return h('section', { class: 'panel projects', id: 'projects' },
    h('h2', {}, ed('Great projects', '宏偉項目')),
    h('div', { class: 'project-list' }, v.projects.map(p => h('div', {
      class: 'project' + (p.current ? ' current' : '') + ' ' + p.outcome, dataset: { age: p.age } },
      h('div', { class: 'project-head' }, h('b', {}, `${ROMAN[p.age]} · ${store.lang === 'zh' && p.zh ? p.zh : p.name}`),
        ' ', h('span', { class: 'tag' }, outcome(p))),
      h('div', {}, ed('Take part: ', '參與費用：'), p.cost, dagger(p, 'cost')),
      h('div', {}, ed('Reward: ', '獎勵：'), p.reward, dagger(p, 'reward')),
      h('div', {}, ed('Penalty: ', '懲罰：'), p.penalty, dagger(p, 'penalty')),
      h('div', { class: 'muted' }, ed('Holders: ', '持有者：'),
        p.holders.length ? p.holders.map(i => page.cityLabel(i)).join(', ') : '–')))),
    debts.length ? h('p', { class: 'muted' }, ed('Debt tokens: ', '負債標記：'), debts.join(' · ')) : null,
    h('p', { class: 'muted small' }, '† ', ed('provisional value: the rulebook\'s tables are lost and no printed source confirms it.',
      '暫定數值：規則書的表格遺失，沒有印刷來源確認。')));
}

paintLangButton();
route();
