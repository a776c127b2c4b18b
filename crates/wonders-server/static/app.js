// The 7 Wonders browser client: the lobby (/), a table (/t/{id}) and the score pad (/score).
// Plain JavaScript, no build step, no inline handlers or styles (the page runs under a strict
// Content-Security-Policy). Every game action comes from the server's `legal` list and is sent
// back as it is; unknown action types are shown as generic buttons.
'use strict';

// ---------------------------------------------------------------- helpers

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.setAttribute('class', v);
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'value' && 'value' in el) el.value = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
}

const SVGNS = 'http://www.w3.org/2000/svg';
function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  setAttrs(el, attrs);
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
  get notify() { return localStorage.getItem('wonders.notify') === '1'; },
  set notify(v) { localStorage.setItem('wonders.notify', v ? '1' : '0'); },
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
  none: ['none yet', '暫無'], join: ['Join', '加入'], watch: ['Watch', '觀戰'], resume: ['Resume', '回到牌桌'],
  table: ['Table', '牌桌'], seated: ['seated', '已入座'], page: ['page', '頁'],
  share: ['Invite friends with this link:', '用這個連結邀請朋友：'], copy: ['Copy', '複製'],
  take: ['Take this seat', '坐這裡'], free: ['free', '空位'], you: ['you', '你'],
  waitingSeats: ['Waiting for every seat to be taken.', '等待所有座位坐滿。'],
  age: ['Age', '時代'], turn: ['Turn', '回合'], yourMove: ['Your move', '輪到你了'],
  waitingOthers: ['Waiting for the others…', '等待其他玩家…'], hand: ['Your hand', '你的手牌'],
  build: ['Build', '建造'], discard: ['Discard for 3 coins', '棄牌換 3 錢幣'],
  ways: ['ways', '種付法'], bank: ['bank', '銀行'], from: ['from', '最少'],
  nothing: ['no cost', '不用付錢'], free_chain: ['free (chain)', '免費（連鎖）'],
  free_free_build: ['free (wonder: once per Age)', '免費（奇蹟：每時代一次）'],
  free_first_of_colour: ['free (first of its colour)', '免費（該顏色第一張）'], free_first_of_age: ['free (first card of the Age)', '免費（本時代第一張）'],
  free_last_of_age: ['free (last card of the Age)', '免費（本時代最後一張）'], freeChain: ['free (chain)', '免費（連鎖）'], freeBy: ['free', '免費'],
  yourCity: ['Your city', '你的城市'], leftN: ['left neighbour', '左鄰'], rightN: ['right neighbour', '右鄰'],
  allCities: ['Every city', '所有城市'], otherCities: ['Other cities', '其他城市'], log: ['Turn log', '回合紀錄'],
  scores: ['Final scores', '最終分數'],
  military: ['Military', '軍事'], treasury: ['Coins', '金錢'], wonder: ['Wonder', '奇蹟'],
  civilian: ['Civilian', '市政'], science: ['Science', '科技'], commercial: ['Commercial', '商業'],
  guilds: ['Guilds', '行會'], naval: ['Naval', '海上衝突'], fleet: ['Fleet', '艦隊'], islands: ['Islands', '島嶼'],
  total: ['Total', '總分'], rank: ['Place', '名次'], coinsLeft: ['Coins left', '剩餘錢幣'],
  rematch: ['Rematch', '再來一局'], joinRematch: ['Join the rematch', '加入再來一局'],
  record: ['Download the game record', '下載遊戲紀錄'], discardPile: ['Discard pile', '棄牌堆'],
  otherActions: ['Actions', '動作'], spectator: ['You are watching.', '你正在觀戰。'],
  coins: ['coins', '錢幣'], shields: ['shields', '盾牌'], chosen: ['has chosen', '已選'],
  choosing: ['choosing', '選擇中'], over: ['Game over', '遊戲結束'], freeCity: ['Free City', '自由城市'],
  chainFrom: ['free with', '可免費建造，若已有'], chainTo: ['makes free', '之後可免費建造'], owned: ['you own it', '你已擁有'],
  live: ['live', '已連線'], reconnecting: ['reconnecting…', '重新連線中…'],
  broken: ['This table could not be restored.', '這張牌桌無法恢復。'], cards: ['cards', '張牌'],
  discardCount: ['in the discard pile', '張在棄牌堆'], pass: ['Build nothing', '不建造'],
  chooseSide: ['Choose this side', '選這一面'], left: ['left', '左'], right: ['right', '右'],
  builtX: ['built', '建造了'], stageX: ['built wonder stage', '建造奇蹟階段'], discardedX: ['discarded a card', '棄了一張牌'],
  fromDiscard: ['from the discard pile', '（從棄牌堆）'], passedX: ['built nothing from the discard pile', '未從棄牌堆建造'],
  choseSideX: ['chose side', '選了'], buildDiscarded: ['Build free', '免費建造'],
  status_waiting: ['waiting for players', '等待玩家'], status_playing: ['playing', '進行中'],
  status_over: ['over', '已結束'], status_broken: ['broken', '損壞'],
  produces: ['Produces', '生產'], sells: ['Neighbours may buy', '鄰居可買'], nothingMade: ['nothing', '無'],
  scienceNow: ['points now', '分（目前）'], scoreNow: ['score now', '目前分數'], tokens: ['tokens', '衝突標記'],
  buyFrom: ['You can buy', '你可以購買'], each: ['each', '每個'], stages: ['Stages', '階段'],
  nextStage: ['next', '下一個'], built: ['built', '已建'], key: ['Key', '圖示說明'],
  yourChoice: ['Your choice', '你的選擇'], takeBack: ['Take back', '收回'], changeable: ['you can change it until everyone has chosen', '所有人選好之前都可以更改'],
  wonderCtl: ['Wonder', '奇蹟'], buildStage: ['Build stage', '建造階段'], withCard: ['with which card?', '用哪張牌？'],
  wonderDone: ['Your wonder is complete.', '你的奇蹟已全部建成。'],
  youHave: ['you have', '你有'], payTotal: ['total', '共'],
  ageEnd: ['End of Age', '時代結束'], conflicts: ['Military conflicts', '軍事衝突'],
  vsLeft: ['vs left', '對左鄰'], vsRight: ['vs right', '對右鄰'], passLeft: ['Hands now pass to the left (clockwise).', '手牌現在向左傳（順時針）。'],
  passRight: ['Hands now pass to the right (counter-clockwise).', '手牌現在向右傳（逆時針）。'],
  tie: ['tie', '平手'], beat: ['beat', '勝'], lostTo: ['lost to', '負於'],
  setupSides: ['Setup · sides chosen', '遊戲準備 · 選擇奇蹟面'], income: ['income', '收入'],
  discardIncome: ['discard', '棄牌'], tradeIncome: ['trade', '貿易'], cardIncome: ['from the card', '卡牌'],
  notify: ['Notify me when it is my move', '輪到我時通知我'],
  freeCityTurn: ['Free City: chosen this turn by', '自由城市：本回合由此玩家選擇'],
  forFreeCity: ['Now choose for the Free City (your own card is set aside). It must build a card it can build free through a chain, and discards only when it can build nothing (2-player rules).',
    '現在替自由城市選牌（你自己的牌已放在一旁）。能以連鎖免費建造的牌必須免費建造；只有在無牌可建造時才棄牌（2 人規則）。'],
  youFinished: ['You finished', '你的名次：'], of: ['of', '共'], winnerIs: ['Winner', '勝者'],
  chart: ['Points by category', '各類得分'], sideOf: ['side', '面'], chooseYourSide: ['Choose the side of your wonder board', '選擇你的奇蹟圖板面'],
  scorePad: ['Score pad', '計分板'], scorePadIntro: ['Score a game played with the box: enter each city clockwise, then Score.', '為實體遊戲計分：依順時針輸入每座城市，然後按「計分」。'],
  addPlayer: ['Add a player', '新增玩家'], remove: ['Remove', '移除'], name: ['Name', '名字'], side: ['Side', '面'],
  searchCard: ['type a card name…', '輸入卡牌名稱…'], add: ['Add', '加入'], tokensHelp: ['military tokens', '軍事標記'],
  scoreIt: ['Score', '計分'], download: ['Download table JSON', '下載牌桌 JSON'], load: ['Load table JSON', '載入牌桌 JSON'],
  freeCityRow: ['2 players and the Free City (1st edition)', '2 人與自由城市（第一版）'],
  phase_choose: ['choose a card', '選一張牌'], phase_choose_side: ['choose the wonder sides', '選擇奇蹟面'],
  phase_play_last_card: ['last card of the Age', '打出時代的最後一張牌'], phase_build_from_discard: ['build from the discard pile', '從棄牌堆建造'],
  phase_over: ['game over', '遊戲結束'], lobbyLink: ['Lobby', '大廳'],
  phase_edifice_discard: ['great project failed: discard a card', '宏偉項目失敗：棄掉一張牌'],
  phase_explore: ['exploration: choose an island', '探索：選擇島嶼'], phase_island_moves: ['island: choose the ships it moves', '島嶼：選擇移動的船隻'], phase_naval_opt_out: ['Forgotten Port: naval conflict or not', '遺忘港：是否參與海軍衝突'],
};

function t(key) {
  const pair = TEXT[key];
  if (!pair) return key;
  return store.lang === 'zh' ? pair[1] : pair[0];
}
const zh = () => store.lang === 'zh';

const ROMAN = ['', 'I', 'II', 'III'];
const COLOURS = ['brown', 'grey', 'blue', 'yellow', 'red', 'green', 'purple'];
const CATS = ['military', 'treasury', 'wonder', 'civilian', 'science', 'commercial', 'guilds'];
// Armada's score categories (naval tokens, blue fleet VP, island VP), shown for Armada tables.
const ARMADA_CATS = ['naval', 'fleet', 'islands'];
const CAT_COLOURS = { military: '#b8322a', treasury: '#e8b923', wonder: '#9a4d12', civilian: '#2f6db3',
  science: '#3c8a3f', commercial: '#c98a00', guilds: '#6d3f96', edifice: '#4a6b7a',
  naval: '#1d4e89', fleet: '#5aa9e6', islands: '#2a9d8f' };

// Resources: letter → names, colour and a distinct shape.
const RES = {
  W: { en: 'wood', zh: '木材', fill: '#6b4421', shape: 'tri' },
  S: { en: 'stone', zh: '石材', fill: '#8a8a80', shape: 'pent' },
  C: { en: 'clay', zh: '黏土', fill: '#c05a2c', shape: 'square' },
  O: { en: 'ore', zh: '礦石', fill: '#2f3138', shape: 'diamond' },
  G: { en: 'glass', zh: '玻璃', fill: '#3aa3b8', shape: 'hex' },
  L: { en: 'loom', zh: '織布', fill: '#8a5fb8', shape: 'circle' },
  P: { en: 'papyrus', zh: '紙草', fill: '#d8c48f', shape: 'scroll' },
};
function resName(l) { const r = RES[l]; return r ? (zh() ? r.zh : r.en) : l; }

function resIcon(letter) {
  const r = RES[letter];
  if (!r) return h('span', {}, letter);
  let shape;
  switch (r.shape) {
    case 'tri': shape = s('polygon', { points: '9,1 17,16 1,16', fill: r.fill }); break;
    case 'pent': shape = s('polygon', { points: '9,1 17,7 14,17 4,17 1,7', fill: r.fill }); break;
    case 'square': shape = s('rect', { x: 2, y: 3, width: 14, height: 12, rx: 1, fill: r.fill }); break;
    case 'diamond': shape = s('polygon', { points: '9,0 18,9 9,18 0,9', fill: r.fill }); break;
    case 'hex': shape = s('polygon', { points: '5,1 13,1 17,9 13,17 5,17 1,9', fill: r.fill }); break;
    case 'circle': shape = s('circle', { cx: 9, cy: 9, r: 8, fill: r.fill }); break;
    default: shape = s('rect', { x: 1, y: 4, width: 16, height: 10, rx: 4, fill: r.fill });
  }
  const dark = letter === 'P';
  return s('svg', { class: 'res res-' + letter, viewBox: '0 0 18 18', width: 18, height: 18, role: 'img', 'aria-label': resName(letter) },
    s('title', {}, resName(letter)), shape,
    s('text', { x: 9, y: 13, 'text-anchor': 'middle', 'font-size': 9, 'font-weight': 700, fill: dark ? '#4a3d1c' : '#fff' }, letter));
}

// "1 point now", "3 points now" (the summary's science and Edifice points).
function pointsNow(n) { return zh() ? `${n} ${t('scienceNow')}` : `${n} point${Math.abs(n) === 1 ? '' : 's'} now`; }

function coinsText(n) { return zh() ? `${n} 錢幣` : `${n} coin${n === 1 ? '' : 's'}`; }

function coinIcon(n) { return h('span', { class: 'coin', title: n + ' ' + t('coins') }, n); }

function costIcons(coins, letters) {
  const parts = [];
  if (coins) parts.push(coinIcon(coins));
  for (const ch of letters || '') parts.push(resIcon(ch));
  if (!parts.length) parts.push(h('span', { class: 'muted free-cost' }, zh() ? '免費' : 'free'));
  return h('span', { class: 'cost' }, parts);
}

// Text with resource letters (standalone capitals W S C O G L P) drawn as icons.
function withIcons(text) {
  const out = [];
  const re = /\b([WSCOGLP]+)\b/g;
  let last = 0; let m;
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index));
    for (const ch of m[1]) out.push(resIcon(ch));
    last = re.lastIndex;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function sideLabel(label) {
  if (!zh()) return label;
  return { A: 'A 面', B: 'B 面', Day: '白天', Night: '夜晚' }[label] || label;
}
function editionLabel(code) {
  return zh() ? ({ '1e': '第一版', '2e': '第二版' }[code] || code) : ({ '1e': '1st edition', '2e': '2nd edition' }[code] || code);
}
// How boards are dealt; the server may store the expansions after a `+` (`random+edifice`):
// they are shown as their own tags.
function wondersLabel(mode) {
  const m = String(mode || '').split('+')[0];
  return m === 'random' ? t('random') : m === 'choose' ? t('choose') : m === 'A' ? t('allA') : m === 'B' ? t('allB') : sideLabel(m);
}
function phaseLabel(p) { return TEXT['phase_' + p] ? t('phase_' + p) : p.replace(/_/g, ' '); }
function ordinal(n) {
  if (zh()) return '第 ' + n + ' 名';
  const s = ['th', 'st', 'nd', 'rd'][(n % 100 >= 11 && n % 100 <= 13) ? 0 : Math.min(n % 10, 4) % 4] || 'th';
  return n + s;
}

function tokenChip(v) {
  return h('span', { class: 'token ' + (v < 0 ? 'tok-neg' : 'tok-' + v), title: (v > 0 ? '+' : '') + v }, v > 0 ? '+' + v : '−' + (-v));
}

// Reasons from the server are English sentences of a few known forms: translated here.
function reasonText(r) {
  if (!zh()) return r;
  let m;
  const tr = [
    [/^stage (\d+): (.*)$/, x => `第 ${x[1]} 階段：` + reasonText(x[2])],
    [/^costs (\d+) coins?, you have (\d+)$/, x => `需要 ${x[1]} 錢幣，你只有 ${x[2]}`],
    [/^needs ([WSCOGLP]): you make none and no neighbour sells it$/, x => `需要 ${x[1]}：你不生產，鄰居也不賣`],
    [/^needs (\d+) ([WSCOGLP]): you make (\d+) and no neighbour sells it$/, x => `需要 ${x[1]} 個 ${x[2]}：你只生產 ${x[3]} 個，鄰居不賣`],
    [/^needs (\d+) ([WSCOGLP]): you and your neighbours make only (\d+)$/, x => `需要 ${x[1]} 個 ${x[2]}：你和鄰居共只有 ${x[3]} 個`],
    [/^buying its resources costs (\d+) coins?( plus (\d+) to the bank)?, you have (\d+)$/, x => `購買資源需要 ${x[1]} 錢幣${x[3] ? `（另付銀行 ${x[3]}）` : ''}，你只有 ${x[4]}`],
    [/^already built/, () => '已建造：城市不能有兩座同名建築'],
    [/^every stage of the wonder is built$/, () => '奇蹟已全部建成'],
    [/^its resources cannot all be found this turn$/, () => '本回合湊不齊所需資源'],
  ];
  for (const [re, f] of tr) { if ((m = r.match(re))) return f(m); }
  return r;
}

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
  const resp = await fetch(path, { method, headers, body: body === undefined ? undefined : (typeof body === 'string' ? body : JSON.stringify(body)) });
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  if (!resp.ok) {
    const msg = data && data.error ? data.error.message : resp.status + ' ' + resp.statusText;
    throw new Error(msg);
  }
  return data;
}

// ---------------------------------------------------------------- pure helpers (tested in the browser test)

// The legal actions of each card name: every copy of a card in the hand shows the same actions
// (two Guard Towers are two cards with the same choices).
function actionsByCard(legal) {
  const by = new Map();
  for (const a of legal) {
    if (a.card === undefined || !['build', 'wonder', 'discard'].includes(a.type)) continue;
    if (!by.has(a.card)) by.set(a.card, []);
    by.get(a.card).push(a);
  }
  return by;
}

function payTotal(a) { return (a.left || 0) + (a.right || 0) + (a.bank || 0) + (a.second_left || 0) + (a.second_right || 0); }

// Ways to pay, cheapest first; at equal totals, less to the bank first, then less to the left.
function sortPayments(actions) {
  return actions.slice().sort((x, y) => (x.free ? -1 : 0) - (y.free ? -1 : 0) || payTotal(x) - payTotal(y)
    || (x.bank || 0) - (y.bank || 0) || (x.left || 0) - (y.left || 0));
}

// Coins each city received from its neighbours' purchases in one step's log entries.
function tradeIncome(entries, n) {
  const got = new Array(n).fill(0);
  for (const e of entries) {
    if (e.left) got[(e.seat + 1) % n] += e.left;
    if (e.right) got[(e.seat + n - 1) % n] += e.right;
  }
  return got;
}

// ---------------------------------------------------------------- catalog

const catalogs = {};

async function catalog(edition) {
  if (!catalogs[edition]) {
    const data = await api('GET', '/api/catalog/' + edition);
    const cards = new Map();
    const makesFree = new Map();
    for (const c of data.cards) {
      if (!cards.has(c.name)) cards.set(c.name, []);
      cards.get(c.name).push(c);
      for (const p of c.chain_from) {
        if (!makesFree.has(p)) makesFree.set(p, []);
        if (!makesFree.get(p).includes(c.name)) makesFree.get(p).push(c.name);
      }
    }
    const wonders = new Map(data.wonders.map(w => [w.name, w]));
    catalogs[edition] = { cards, wonders, makesFree, list: data.cards, wonderList: data.wonders, edifice: data.edifice || null };
  }
  return catalogs[edition];
}

function cardDef(cat, name, age) {
  const list = (cat && cat.cards.get(name)) || [];
  return list.find(c => age === undefined || age === null || c.age === age) || list[0] || null;
}
function cardName(cat, name, age) {
  const d = cardDef(cat, name, age);
  return d && zh() && d.zh ? d.zh : name;
}
function wonderName(cat, name) {
  const w = cat && cat.wonders.get(name);
  return w && zh() && w.zh ? w.zh : name;
}
function effectText(d) { return zh() && d.effect_zh ? d.effect_zh : d.effect; }

function resourceKey() {
  return h('div', { class: 'res-key' }, h('b', {}, t('key') + ': '),
    Object.keys(RES).map(l => h('span', { class: 'key-item' }, resIcon(l), ' ', resName(l))),
    h('span', { class: 'key-item' }, coinIcon(1), ' ', t('coins')),
    h('span', { class: 'key-item' }, h('span', { class: 'shield' }, '⚔'), ' ', t('shields')));
}

// ---------------------------------------------------------------- router

let current = null; // the live table page, if any

function route() {
  if (current) { current.close(); current = null; }
  document.title = '7 Wonders';
  const m = location.pathname.match(/^\/t\/([0-9a-zA-Z]+)\/?$/);
  if (m) current = new TablePage(m[1]);
  else if (location.pathname.replace(/\/$/, '') === '/score') scorePad();
  else lobby();
}

function go(path) {
  history.pushState(null, '', path);
  route();
}

function link(path, text, attrs) {
  return h('a', Object.assign({ href: path, onclick: ev => { ev.preventDefault(); go(path); } }, attrs || {}), text);
}

window.addEventListener('popstate', route);
document.getElementById('lang').addEventListener('click', () => {
  store.lang = zh() ? 'en' : 'zh';
  paintLangButton();
  if (current) current.render();
  else if (location.pathname.startsWith('/score')) scorePad(true);
  else lobby();
});

function paintLangButton() {
  document.getElementById('lang').textContent = zh() ? 'English' : '中文';
  document.documentElement.lang = zh() ? 'zh-Hant' : 'en';
  const pad = document.getElementById('nav-score');
  if (pad) pad.textContent = t('scorePad');
}

// ---------------------------------------------------------------- lobby

const PAGE = 8;
const lobbyPages = { open: 0, finished: 0 };

function tableTitle(tbl) {
  const names = tbl.seats.map(s => s.name || t('free'));
  return names.join(' · ');
}

async function lobby() {
  document.getElementById('conn').textContent = '';
  document.body.dataset.page = 'lobby';
  const app = document.getElementById('app');
  let bots = ['heuristic', 'random'];
  try { bots = await api('GET', '/api/bots'); } catch (e) { /* keep the default */ }

  const players = h('select', { id: 'players', name: 'players' },
    [2, 3, 4, 5, 6, 7, 8].map(n => h('option', { value: n, selected: n === 4 }, n)));
  const edition = h('select', { id: 'edition', name: 'edition' },
    h('option', { value: '1e' }, editionLabel('1e') + ' (2010)'), h('option', { value: '2e' }, editionLabel('2e') + ' (2020)'));
  const wonders = h('select', { id: 'wonders', name: 'wonders' },
    h('option', { value: 'random' }, t('random')), h('option', { value: 'A' }, t('allA')),
    h('option', { value: 'B' }, t('allB')), h('option', { value: 'choose' }, t('choose')));
  const edificeBox = h('input', { id: 'edifice', name: 'edifice', type: 'checkbox' });
  const armadaBox = h('input', { id: 'armada', name: 'armada', type: 'checkbox' });
  const teamsBox = h('input', { id: 'teams', name: 'teams', type: 'checkbox' });
  const seats = h('div', { class: 'seat-choices' });
  const name = h('input', { id: 'name', name: 'name', maxlength: 32, placeholder: t('yourName'), value: store.name });
  const botLabel = b => t('bot') + ': ' + b + (b === 'search' ? (zh() ? '（最強，較慢）' : ' (strongest, slower)') : b === 'heuristic' ? (zh() ? '（穩健）' : ' (solid)') : b === 'random' ? (zh() ? '（隨機）' : ' (random moves)') : '');
  const paintSeats = () => {
    const old = [...seats.querySelectorAll('select')].map(x => x.value);
    seats.replaceChildren();
    for (let i = 0; i < Number(players.value); i++) {
      const sel = h('select', { id: 'seat-' + i, 'aria-label': t('seats') + ' ' + (i + 1) },
        h('option', { value: '' }, t('person')),
        bots.map(b => h('option', { value: b }, botLabel(b))));
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
      const seatList = [...seats.querySelectorAll('select')].map(x => (x.value ? { bot: x.value } : {}));
      const info = await api('POST', '/api/tables', {
        players: Number(players.value), edition: edition.value, wonders: wonders.value, seats: seatList,
        expansions: [...(armadaBox.checked ? ['armada'] : []), ...(edificeBox.checked ? ['edifice'] : [])],
        teams: teamsBox.checked,
      });
      const mine = seatList.findIndex(x => !x.bot);
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
    edificeLobbyOption(edificeBox), armadaLobbyOption(armadaBox), teamsLobbyOption(teamsBox)),
  h('h3', {}, t('seats')), seats, create,
  h('p', { class: 'muted' }, link('/score', t('scorePad'), { id: 'to-score' }), ' — ', t('scorePadIntro')));

  const lists = h('div', { class: 'panel tables' }, h('p', { class: 'muted' }, '…'));
  app.replaceChildren(form, lists);
  let data = null;
  const row = tbl => {
    const mine = store.token(tbl.id);
    const taken = tbl.seats.filter(x => x.taken).length;
    const canJoin = !mine && tbl.status === 'waiting' && taken < tbl.players;
    return h('li', { class: 'table-row', dataset: { table: tbl.id } },
      h('div', { class: 'table-title' }, tableTitle(tbl)),
      h('div', { class: 'table-meta' },
        h('span', { class: 'tag' }, editionLabel(tbl.edition)), ' ',
        (tbl.expansions || []).map(x => [h('span', { class: 'tag expansion' }, expansionLabel(x)), ' ']),
        h('span', { class: 'tag' }, `${taken}/${tbl.players} ${t('seated')}`), ' ',
        h('span', { class: 'tag status-' + tbl.status }, t('status_' + tbl.status)),
        tbl.status === 'playing' ? h('span', { class: 'muted' }, ` ${t('age')} ${ROMAN[tbl.age] || tbl.age} · ${t('turn')} ${tbl.turn}`) : null,
        mine ? h('span', { class: 'tag you' }, t('you')) : null,
        h('span', { class: 'row-actions' },
          canJoin ? link('/t/' + tbl.id, t('join'), { class: 'button primary join' }) : null,
          link('/t/' + tbl.id, mine ? t('resume') : t('watch'), { class: 'button watch' }))));
  };
  const pager = (key, list) => {
    const pages = Math.max(1, Math.ceil(list.length / PAGE));
    lobbyPages[key] = Math.min(lobbyPages[key], pages - 1);
    const p = lobbyPages[key];
    const items = list.slice(p * PAGE, (p + 1) * PAGE);
    return [
      items.length ? h('ul', { id: key + '-tables' }, items.map(row)) : h('p', { class: 'muted' }, t('none')),
      pages > 1 ? h('div', { class: 'pager' },
        h('button', { type: 'button', disabled: p === 0, onclick: () => { lobbyPages[key]--; paint(); } }, '◀'),
        ` ${t('page')} ${p + 1} / ${pages} `,
        h('button', { type: 'button', class: 'next-page', disabled: p >= pages - 1, onclick: () => { lobbyPages[key]++; paint(); } }, '▶')) : null,
    ];
  };
  const paint = () => {
    lists.replaceChildren(...[
      h('h2', {}, t('openTables')), ...pager('open', data.open),
      h('h2', {}, t('finishedTables')), ...pager('finished', data.finished)].filter(Boolean));
  };
  try {
    data = await api('GET', '/api/tables');
    paint();
  } catch (e) {
    lists.replaceChildren(h('p', { class: 'error' }, e.message));
  }
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
    this.stageCard = null;
    this.wasMyMove = false;
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
      setTimeout(() => { if (!this.closed) this.connect(); }, this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  async onMessage(msg) {
    if (msg.type === 'state') {
      if (!this.cat && msg.table) this.cat = await catalog(msg.table.edition);
      const old = this.state;
      if (!old || old.turn_id !== msg.turn_id || old.step !== msg.step) { this.pending = false; this.open.clear(); }
      // The log arrives in pieces: keep what came before `history_from`.
      const before = old && msg.history_from ? (old.history || []).slice(0, msg.history_from) : [];
      msg.history = before.concat(msg.history || []);
      this.state = msg;
      this.render();
      this.announce();
    } else if (msg.type === 'accepted') {
      // Stored. The state it leads to comes with it or a moment later (the server may hold a
      // state that asks nothing more of this seat, to send it with the other seats' choices):
      // `pending` ends, and the buttons come back, with that state (its new `turn_id`), not
      // here, where they would be the old state's.
    } else if (msg.type === 'error') {
      this.pending = false;
      banner(msg.message);
      if (this.state) this.render();
      if (msg.code === 'forbidden' && msg.id === undefined) {
        const all = store.tokens();
        delete all[this.id];
        localStorage.setItem('wonders.tokens', JSON.stringify(all));
      }
    }
  }

  // "Your move" in the tab's title, and a notification when the tab is hidden (if allowed).
  announce() {
    const st = this.state;
    const mine = st.you !== null && st.legal.length > 0;
    document.title = (mine ? '● ' + t('yourMove') + ' · ' : '') + '7 Wonders';
    if (mine && !this.wasMyMove && document.hidden && store.notify && window.Notification
      && Notification.permission === 'granted') {
      try { new Notification('7 Wonders', { body: t('yourMove') + ' — ' + t('table') + ' ' + tableTitle(st.table) }); } catch (e) { /* ignore */ }
    }
    this.wasMyMove = mine;
  }

  send(action) {
    if (this.pending || !this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    this.pending = true;
    this.ws.send(JSON.stringify({ type: 'act', id: this.nextId++, turn_id: this.state.turn_id, action }));
    this.render();
  }

  retract() {
    if (this.pending || !this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    this.pending = true;
    this.ws.send(JSON.stringify({ type: 'retract', id: this.nextId++ }));
    this.render();
  }

  seatName(i) {
    const seat = this.state.table.seats[i];
    if (!seat) return t('freeCity');
    return seat.name || '#' + (i + 1);
  }

  cityLabel(i) {
    const v = this.state.view;
    if (v && v.free_city !== undefined && v.free_city === i) return t('freeCity');
    // Team variant: seats 2k and 2k+1 play together; mark each seat's team, and the teammate.
    if (v && v.teams) {
      const mate = this.state.you !== null && this.state.you !== undefined && (this.state.you ^ 1) === i;
      return `${this.seatName(i)} [${t('team')} ${Math.floor(i / 2) + 1}${mate ? ' · ' + t('teammate') : ''}]`;
    }
    return this.seatName(i);
  }

  render() {
    const st = this.state;
    if (!st) return;
    document.body.dataset.status = st.table.status;
    document.body.dataset.turnId = st.turn_id;
    document.body.dataset.step = st.step;
    document.body.dataset.legal = st.legal.length;
    document.body.dataset.pending = (st.pending || []).length;
    const app = document.getElementById('app');
    const parts = [this.header()];
    if (st.table.status === 'broken') {
      parts.push(h('p', { class: 'error' }, t('broken'), ' ', st.table.error || ''));
    } else if (st.table.status === 'waiting') {
      parts.push(this.seatsPanel());
    } else if (st.view) {
      const over = st.table.status === 'over';
      if (over) parts.push(this.gameOverPanel());
      parts.push(this.statusPanel());
      if (st.view.projects) parts.push(edificePanel(this));
      if (st.view.armada) parts.push(armadaPanel(this));
      if (st.view.teammate_hand && !over) parts.push(teammatePanel(this));
      const ageEnd = this.ageEndPanel();
      if (ageEnd) parts.push(ageEnd);
      if (st.you !== null && !over) parts.push(this.playPanel());
      parts.push(this.citiesPanel(over));
      parts.push(this.logPanel());
    }
    const scroll = window.scrollY;
    app.replaceChildren(...parts);
    window.scrollTo(0, scroll);
  }

  header() {
    const st = this.state;
    const url = location.origin + '/t/' + this.id;
    const input = h('input', { class: 'share-link', readonly: true, value: url, onfocus: e => e.target.select() });
    return h('section', { class: 'panel table-head' },
      h('h1', {}, tableTitle(st.table), ' ',
        h('span', { class: 'tag' }, editionLabel(st.table.edition)), ' ',
        h('span', { class: 'tag' }, wondersLabel(st.table.wonders)), ' ',
        (st.table.expansions || []).map(x => [h('span', { class: 'tag expansion' }, expansionLabel(x)), ' ']),
        h('span', { class: 'tag status-' + st.table.status }, t('status_' + st.table.status))),
      st.table.status === 'waiting' ? h('div', { class: 'share' }, t('share'), ' ', input,
        h('button', { type: 'button', onclick: () => {
          input.select();
          if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
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
      h('ul', { class: 'seat-list' }, st.table.seats.map(x => h('li', { class: 'seat' + (x.taken ? ' taken' : '') },
        h('b', {}, '#' + (x.seat + 1)), ' ',
        x.bot ? `${x.name} (${t('bot')})` : (x.name || t('free')),
        st.you === x.seat ? h('span', { class: 'tag you' }, t('you')) : null,
        !x.taken && canTake ? h('button', { class: 'primary take', type: 'button', dataset: { seat: x.seat },
          onclick: async ev => {
            ev.target.disabled = true;
            try {
              const who = name.value.trim() || 'Player';
              store.name = who;
              const tok = await api('POST', `/api/tables/${this.id}/seats/${x.seat}`, { name: who });
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
      : `${t('age')} ${ROMAN[v.age] || v.age} · ${t('turn')} ${v.turn}` + (v.phase !== 'choose' ? ` · ${phaseLabel(v.phase)}` : '');
    let prompt = null;
    if (st.you !== null && st.table.status === 'playing') {
      prompt = st.legal.length ? h('strong', { class: 'prompt go' }, t('yourMove'))
        : h('span', { class: 'prompt muted' }, t('waitingOthers'));
    }
    const notify = st.you !== null && st.table.status === 'playing' && window.Notification
      ? h('label', { class: 'notify' }, h('input', { type: 'checkbox', id: 'notify', checked: store.notify && Notification.permission === 'granted',
        onchange: async ev => {
          store.notify = ev.target.checked;
          if (ev.target.checked && Notification.permission !== 'granted') {
            const p = await Notification.requestPermission();
            if (p !== 'granted') { store.notify = false; ev.target.checked = false; }
          }
        } }), ' ', t('notify')) : null;
    const freeLine = v.free_city !== undefined && v.free_city_holder !== undefined && v.phase !== 'over'
      ? h('p', { class: 'note free-city-line' }, t('freeCityTurn'), ' ', h('b', {}, this.seatName(v.free_city_holder)),
        st.you === v.free_city_holder ? h('span', { class: 'tag you' }, t('you')) : null) : null;
    if (v.phase === 'over') return h('section', { class: 'panel status' }, h('div', { class: 'phase' }, phase));
    return h('section', { class: 'panel status' },
      h('div', { class: 'phase' }, phase, ' ', prompt,
        h('span', { class: 'muted discard-count' }, ` · ${v.discard_size} ${t('discardCount')}`)),
      freeLine,
      h('div', { class: 'chips' }, st.table.seats.map((x, i) => h('span', {
        class: 'chip' + (waiting.has(i) ? ' waiting' : ' done') + (st.you === i ? ' me' : ''),
        title: waiting.has(i) ? t('choosing') : t('chosen'),
      }, (waiting.has(i) ? '… ' : '✓ ') + this.seatName(i) + (v.hand_sizes[i] !== undefined ? ` · ${v.hand_sizes[i]} ${t('cards')}` : '')))),
      notify);
  }

  // The panel of the last Age's military conflicts: shown at the start of the next Age and at
  // the end of the game.
  ageEndPanel() {
    const st = this.state;
    const v = st.view;
    const ends = st.age_ends || [];
    if (!ends.length) return null;
    const last = ends[ends.length - 1];
    const fresh = v.phase === 'over' || (v.age === last.age + 1 && v.turn === 1);
    if (!fresh) return null;
    return h('section', { class: 'panel age-end', id: 'age-end' },
      h('h2', {}, `${t('ageEnd')} ${ROMAN[last.age]} — ${t('conflicts')}`),
      this.conflictTable(last),
      armadaAgeEnd(this, last),
      edificeAgeEnd(this, last.age),
      v.phase !== 'over' ? h('p', { class: 'note' }, last.age + 1 === 2 ? t('passRight') : t('passLeft')) : null);
  }

  conflictTable(end) {
    const n = end.cities.length;
    return h('div', { class: 'table-scroll' }, h('table', { class: 'conflicts' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, '⚔'), h('th', {}, t('vsLeft')), h('th', {}, t('vsRight')))),
      h('tbody', {}, end.cities.map((c, i) => h('tr', { class: this.state.you === i ? 'me' : '' },
        h('th', {}, this.cityLabel(i)), h('td', {}, c.shields),
        h('td', {}, this.conflictCell(c.left, (i + 1) % n, end.cities[(i + 1) % n].shields, i)),
        h('td', {}, this.conflictCell(c.right, (i + n - 1) % n, end.cities[(i + n - 1) % n].shields, i)))))));
  }

  conflictCell(token, other, otherShields, me) {
    // Team variant: no conflict between teammates (seats 2k and 2k+1).
    const v = this.state.view;
    if (v && v.teams && me !== undefined && (me ^ 1) === other) {
      return [h('span', { class: 'muted' }, `${ed('no conflict with teammate', '隊友之間無衝突')} ${this.cityLabel(other)}`)];
    }
    const word = token > 0 ? t('beat') : token < 0 ? t('lostTo') : t('tie');
    return [token ? tokenChip(token) : h('span', { class: 'token tok-0' }, '0'), ' ',
      h('span', { class: 'muted' }, `${word} ${this.cityLabel(other)} (${otherShields}⚔)`)];
  }

  paymentParts(a, city) {
    const n = this.state.view.cities.length;
    if (a.free) return [t('free_' + a.free)];
    const parts = [];
    if (a.left) parts.push(`${a.left} → ${this.cityLabel((city + 1) % n)}`);
    if (a.right) parts.push(`${a.right} → ${this.cityLabel((city + n - 1) % n)}`);
    parts.push(...secondParts(this, city, a));
    if (a.bank) parts.push(`${a.bank} → ${t('bank')}`);
    const out = parts.length ? parts : [t('nothing')];
    const extra = edificeActionText(a);
    if (extra) out.push(extra.slice(3));
    return out;
  }

  paymentLabel(a, city) {
    const total = payTotal(a);
    const coins = this.state.view.cities[city].coins;
    const naval = this.state.view.armada ? navalPart(this, city, a) : [];
    const navalSpan = naval.length ? h('span', { class: 'naval-part' }, naval.map((x, k) => [k ? ' · ' : ' · ', x])) : null;
    if (a.free || total === 0) return h('span', { class: 'pay' }, this.paymentParts(a, city).join(', '), navalSpan);
    return h('span', { class: 'pay' }, h('b', {}, coinsText(total)), ' ',
      h('span', { class: 'pay-detail' }, '(' + this.paymentParts(a, city).join(', ') + ')'), navalSpan,
      ' ', h('span', { class: 'muted' }, `· ${t('youHave')} ${coins}`));
  }

  // One kind of action: a single button, or a chooser of the ways to pay, cheapest first.
  actionGroup(key, label, actions, city) {
    if (!actions.length) return null;
    const disabled = this.pending;
    const sorted = sortPayments(actions);
    if (sorted.length === 1) {
      const a = sorted[0];
      return h('button', { class: 'act act-' + a.type, type: 'button', disabled, onclick: () => this.send(a) },
        h('span', { class: 'act-label' }, label), ' ', this.paymentLabel(a, city));
    }
    const open = this.open.has(key);
    return h('div', { class: 'chooser' + (open ? ' open' : '') },
      h('button', { class: 'choose', type: 'button', disabled, onclick: () => {
        if (this.open.has(key)) this.open.delete(key); else this.open.add(key);
        this.render();
      } }, `${label} ▾ ${sorted[0].free || !payTotal(sorted[0]) ? t('freeBy') : t('from') + ' ' + coinsText(payTotal(sorted[0]))} (${sorted.length} ${t('ways')})`),
      open ? h('div', { class: 'options' }, sorted.map(a => h('button', {
        class: 'act act-' + a.type, type: 'button', disabled, onclick: () => this.send(a),
      }, this.paymentLabel(a, city)))) : null);
  }

  genericLabel(a) {
    const base = { pass: t('pass'), choose_side: t('chooseSide'), build_discarded: t('buildDiscarded') }[a.type]
      || a.type.replace(/_/g, ' ');
    const details = Object.entries(a).filter(([k]) => k !== 'type')
      .map(([k, v]) => (k === 'card' ? cardName(this.cat, v, a.age) : k === 'age' ? null : k === 'side' ? sideLabel(v)
        : k === 'free_move' ? ed(`free move of the ${fleetName(v)} ship`, `免費移動${fleetName(v)}船隻`) : `${k}: ${v}`))
      .filter(x => x !== null);
    return details.length ? `${base}: ${details.join(', ')}` : base;
  }

  actionText(a, city) {
    switch (a.type) {
      case 'build': return `${t('build')} ${cardName(this.cat, a.card, a.age)} · ${this.paymentParts(a, city).join(', ')}` + navalLabel(this, city, '', a);
      case 'wonder': return `${t('buildStage')} · ${cardName(this.cat, a.card, a.age)} · ${this.paymentParts(a, city).join(', ')}` + navalLabel(this, city, '', a);
      case 'discard': return `${t('discard')} · ${cardName(this.cat, a.card, a.age)}` + (a.yellow ? ed(' · yellow ship +1 step', ' · 黃色船前進1格') : '');
      case 'choose_island': return ed(`keep ${a.island}`, `保留 ${a.island}`) + ((a.moves || []).length ? ed(` · move ${a.moves.map(fleetName).join(' + ')}`, ` · 移動 ${a.moves.map(fleetName).join(' + ')}`) : '');
      case 'stay_out_of_naval': return a.stay_out ? ed('stay out of the naval conflict', '不參與海軍衝突') : ed('take part in the naval conflict', '參與海軍衝突');
      case 'choose_side': return `${t('chooseSide')}: ${sideLabel(a.side)}`;
      default: return this.genericLabel(a);
    }
  }

  // A card: colour, name, cost, effect, chains both ways, and the reason it cannot be built.
  cardBox(name, age, opts) {
    const cat = this.cat;
    const o = opts || {};
    const d = cardDef(cat, name, age);
    const colour = d ? d.colour : 'grey';
    const city = o.city !== undefined ? this.state.view.cities[o.city] : null;
    const owns = n => city && city.cards.includes(n);
    const from = d ? d.chain_from : [];
    const to = (cat.makesFree.get(name) || []);
    return h('div', { class: 'card c-' + colour + (o.reason ? ' unbuildable' : '') + (o.picked ? ' picked' : ''), dataset: { card: name } },
      h('div', { class: 'card-head' },
        h('span', { class: 'card-name' }, cardName(cat, name, age)),
        d ? costIcons(d.coins, d.cost) : null),
      d ? h('div', { class: 'card-effect' }, withIcons(effectText(d))) : null,
      from.length ? h('div', { class: 'card-chain' }, '← ' + t('chainFrom') + ' ',
        from.map((n, k) => [k ? ', ' : '', h('span', { class: owns(n) ? 'chain-owned' : '' }, cardName(cat, n) + (owns(n) ? ' ✓' : ''))])) : null,
      to.length ? h('div', { class: 'card-chain' }, '→ ' + t('chainTo') + ': ' + to.map(n => cardName(cat, n)).join(', ')) : null,
      o.reason ? h('div', { class: 'reason' }, '✗ ', withIcons(reasonText(o.reason))) : null,
      o.controls || null);
  }

  playPanel() {
    const st = this.state;
    const v = st.view;
    const me = st.you;
    const city = v.acting_city !== undefined ? v.acting_city : me;
    const pending = st.pending || [];
    const parts = [];
    // The pending choice: highlighted, and taken back until the step resolves.
    if (pending.length) {
      parts.push(h('div', { class: 'pending', id: 'pending' },
        h('b', {}, t('yourChoice') + ': '),
        pending.map((a, k) => h('span', { class: 'pending-action' }, (k ? ' + ' + t('freeCity') + ': ' : '') + this.actionText(a, k ? v.free_city : me))),
        ' ', h('button', { type: 'button', id: 'take-back', disabled: this.pending, onclick: () => this.retract() }, '↶ ' + t('takeBack')),
        ' ', h('span', { class: 'muted' }, t('changeable'))));
    }
    if (v.phase === 'choose_side') {
      parts.push(this.sidePanel());
      return h('section', { class: 'panel hand' }, parts);
    }
    if (v.phase === 'edifice_discard') {
      parts.push(edificeDiscardPanel(this));
      return h('section', { class: 'panel hand' }, parts);
    }
    if (v.phase === 'explore' && st.legal.some(a => a.type === 'choose_island')) {
      parts.push(armadaExplorePanel(this));
      return h('section', { class: 'panel hand' }, parts);
    }
    if (v.phase === 'island_moves' && st.legal.some(a => a.type === 'choose_island')) {
      parts.push(armadaIslandMovesPanel(this));
      return h('section', { class: 'panel hand' }, parts);
    }
    if (v.phase === 'naval_opt_out' && st.legal.some(a => a.type === 'stay_out_of_naval')) {
      parts.push(armadaOptOutPanel(this));
      return h('section', { class: 'panel hand' }, parts);
    }
    const forFree = v.free_city !== undefined && city === v.free_city && st.legal.length;
    if (forFree) parts.push(h('p', { class: 'note for-free-city' }, t('forFreeCity')));
    // The hand: during the Free City step, the card chosen for the own city is set aside.
    let hand = (v.hand || []).slice();
    const picked = pending.length ? pending[0].card : null;
    if (forFree && picked) {
      const i = hand.indexOf(picked);
      if (i >= 0) hand.splice(i, 1);
    }
    const reasons = st.reasons || [];
    const reasonOf = name => {
      const i = (v.hand || []).indexOf(name);
      return i >= 0 ? reasons[i] : null;
    };
    const by = actionsByCard(st.legal);
    const other = st.legal.filter(a => a.card === undefined || !['build', 'wonder', 'discard'].includes(a.type));
    const canAct = st.legal.length > 0;
    if (canAct && v.phase !== 'build_from_discard') parts.push(this.wonderControl(hand, by, city));
    const handCards = hand.map((name, i) => {
      const acts = by.get(name) || [];
      const builds = acts.filter(a => a.type === 'build');
      const discards = acts.filter(a => a.type === 'discard');
      const reason = canAct && !builds.length ? (reasonOf(name) || null) : null;
      // Armada: one control per naval construction (with or without, which ship), and the
      // discard for 3 coins or for a free move of the yellow ship.
      const coinDiscard = discards.find(a => !a.yellow);
      const yellowDiscard = discards.find(a => a.yellow);
      const controls = canAct ? h('div', { class: 'card-actions' },
        // Keyed by the card's place in the hand too: two copies of a card open their choosers
        // one at a time.
        navalGroups(builds).map(([key, list]) => this.actionGroup('b' + key + name + '#' + i, navalLabel(this, city, t('build'), list[0]), list, city)),
        coinDiscard ? h('button', { class: 'act act-discard', type: 'button', disabled: this.pending, onclick: () => this.send(coinDiscard) }, t('discard')) : null,
        yellowDiscard ? h('button', { class: 'act act-discard act-discard-yellow', type: 'button', disabled: this.pending, onclick: () => this.send(yellowDiscard) },
          ed('Discard: yellow ship +1 step (no coins)', '棄牌：黃色船前進1格（不拿錢）')) : null)
        : null;
      return this.cardBox(name, v.age, { city, reason: reason || (canAct && !builds.length && acts.length ? '—' : null), controls,
        picked: !canAct && pending.some(a => a.card === name) });
    });
    const discardCards = v.discard ? v.discard.map(name => {
      const acts = other.filter(a => a.card === name);
      return this.cardBox(name, acts.length && acts[0].age ? acts[0].age : undefined, { city,
        controls: h('div', { class: 'card-actions' }, acts.map(a => h('button', {
          class: 'act act-' + a.type, type: 'button', disabled: this.pending, onclick: () => this.send(a),
        }, this.genericLabel(a).split(':')[0]))) });
    }) : [];
    const loose = other.filter(a => !(v.discard && a.card !== undefined && v.discard.includes(a.card)));
    parts.unshift(h('h2', {}, t('hand'), ' ', h('span', { class: 'muted' }, `(${hand.length})`)));
    parts.push(
      loose.length ? h('div', { class: 'generic' }, h('h3', {}, t('otherActions')), loose.map(a => h('button', {
        class: 'act act-' + a.type, type: 'button', disabled: this.pending, onclick: () => this.send(a),
      }, this.genericLabel(a)))) : null,
      discardCards.length ? [h('h3', {}, t('discardPile')), h('div', { class: 'cards' }, discardCards)] : null,
      h('div', { class: 'cards' }, handCards),
      resourceKey());
    return h('section', { class: 'panel hand' }, parts);
  }

  // One wonder control: the next stage (cost, effect), which card to use, and how to pay.
  wonderControl(hand, by, city) {
    const st = this.state;
    const c = st.view.cities[city];
    const w = this.cat.wonders.get(c.wonder);
    const side = w && w.sides.find(x => x.label === c.side);
    const stages = side ? side.stages : [];
    if (c.stages >= stages.length) return h('div', { class: 'wonder-ctl done' }, t('wonderDone'));
    const next = stages[c.stages];
    const withCard = [...new Set(hand)].filter(n => (by.get(n) || []).some(a => a.type === 'wonder'));
    const whose = city !== st.you ? this.cityLabel(city) + ' · ' : '';
    const head = h('div', { class: 'wonder-head' }, h('b', {}, `${whose}${t('buildStage')} ${c.stages + 1}/${stages.length}`), ' ',
      costIcons(0, next.cost), ' → ', h('span', {}, withIcons(effectText(next))));
    if (!withCard.length) {
      return h('div', { class: 'wonder-ctl unbuildable', id: 'wonder-ctl' }, head,
        st.stage_reason ? h('div', { class: 'reason' }, '✗ ', withIcons(reasonText(st.stage_reason))) : null);
    }
    if (!withCard.includes(this.stageCard)) this.stageCard = withCard[withCard.length - 1];
    const select = h('select', { id: 'stage-card', onchange: ev => { this.stageCard = ev.target.value; this.render(); } },
      withCard.map(n => h('option', { value: n, selected: n === this.stageCard }, cardName(this.cat, n, st.view.age))));
    const acts = (by.get(this.stageCard) || []).filter(a => a.type === 'wonder');
    return h('div', { class: 'wonder-ctl', id: 'wonder-ctl' }, head,
      h('div', { class: 'wonder-pick' }, h('label', {}, t('withCard') + ' ', select), ' ',
        navalGroups(acts).map(([key, list]) => this.actionGroup('w' + key, navalLabel(this, city, t('buildStage') + ' ' + (c.stages + 1), list[0]), list, city))));
  }

  // 2nd edition: both sides of the board drawn, each with its stages, to choose from.
  sidePanel() {
    const st = this.state;
    const v = st.view;
    const c = v.cities[st.you];
    const w = this.cat.wonders.get(c.wonder);
    const chosen = (st.pending || []).find(a => a.type === 'choose_side');
    return h('div', { class: 'side-choice', id: 'side-choice' },
      h('h3', {}, t('chooseYourSide'), ': ', wonderName(this.cat, c.wonder), w ? [' (', resIcon(w.start), ')'] : null),
      h('div', { class: 'sides' }, (w ? w.sides : []).map(sd => {
        const act = st.legal.find(a => a.type === 'choose_side' && a.side === sd.label);
        return h('div', { class: 'side' + (chosen && chosen.side === sd.label ? ' picked' : ''), dataset: { side: sd.label } },
          h('h4', {}, sideLabel(sd.label)),
          h('ol', { class: 'stage-list' }, sd.stages.map(x => h('li', {}, costIcons(0, x.cost), ' → ', withIcons(effectText(x))))),
          act ? h('button', { class: 'act act-choose_side primary', type: 'button', disabled: this.pending, onclick: () => this.send(act) },
            t('chooseSide') + ': ' + sideLabel(sd.label)) : null);
      })));
  }

  productionLine(p) {
    const items = [];
    for (const l of p.fixed) items.push(resIcon(l));
    for (const e of p.either) items.push(h('span', { class: 'either' }, [...e].map((l, k) => [k ? '/' : '', resIcon(l)])));
    return items.length ? items : [h('span', { class: 'muted' }, t('nothingMade'))];
  }

  cityPanel(i, role, expanded) {
    const st = this.state;
    const v = st.view;
    const c = v.cities[i];
    const sum = (st.summaries || [])[i];
    const cat = this.cat;
    const w = cat.wonders.get(c.wonder);
    const side = w ? w.sides.find(x => x.label === c.side) : null;
    const stages = side ? side.stages : [];
    const byColour = new Map(COLOURS.map(col => [col, []]));
    for (const name of c.cards) {
      const d = cardDef(cat, name);
      const col = d ? d.colour : 'grey';
      if (!byColour.has(col)) byColour.set(col, []);
      byColour.get(col).push(name);
    }
    const n = v.cities.length;
    const roleText = role === 'left' ? t('leftN') : role === 'right' ? t('rightN') : null;
    const sci = sum ? [['◎', 0], ['⚙', 1], ['▤', 2]].map(([g, k]) => h('span', { class: 'sci' }, g + ' ' + sum.science[k])) : [];
    const trade = role === 'mine' && sum ? [[(i + 1) % n, 'left'], [(i + n - 1) % n, 'right']].map(([o, dir]) => {
      const other = st.summaries[o];
      const prices = sum.prices[dir];
      const letters = new Set([...other.for_sale.fixed, ...other.for_sale.either.join('')]);
      const groups = new Map();
      for (const l of 'WSCOGLP') if (letters.has(l)) {
        const p = prices['WSCOGLP'.indexOf(l)];
        if (!groups.has(p)) groups.set(p, []);
        groups.get(p).push(l);
      }
      return h('div', { class: 'trade-line' }, h('span', { class: 'muted' }, `${t('buyFrom')} (${t(dir)}, ${this.cityLabel(o)}): `),
        groups.size ? [...groups].map(([p, ls]) => h('span', { class: 'trade-group' }, ls.map(resIcon), ` ${p} ${t('each')}`))
          : h('span', { class: 'muted' }, t('nothingMade')));
    }) : null;
    const sellsDiffers = sum && JSON.stringify(sum.for_sale) !== JSON.stringify(sum.production);
    return h('div', { class: 'city ' + role, dataset: { city: i } },
      h('div', { class: 'city-head' },
        h('b', {}, this.cityLabel(i)), st.you === i ? h('span', { class: 'tag you' }, t('you')) : null,
        roleText ? h('span', { class: 'muted' }, ' · ' + roleText) : null,
        h('span', { class: 'stats' },
          coinIcon(c.coins),
          h('span', { class: 'shield', title: t('shields') }, '⚔ ' + c.shields),
          h('span', { class: 'tokens', title: t('tokens') }, c.military.length ? c.military.map(tokenChip) : h('span', { class: 'muted' }, '·')),
          sum ? h('span', { class: 'score-now', title: t('scoreNow') }, '≈ ' + sum.score_now + (zh() ? ' 分' : ' pts')) : null)),
      sum ? h('div', { class: 'summary' },
        h('div', { class: 'prod' }, h('span', { class: 'muted' }, t('produces') + ': '), this.productionLine(sum.production)),
        sellsDiffers ? h('div', { class: 'prod' }, h('span', { class: 'muted' }, t('sells') + ': '), this.productionLine(sum.for_sale)) : null,
        h('div', { class: 'sci-line' }, h('span', { class: 'muted' }, t('science') + ': '), sci,
          sum.science_wild ? h('span', { class: 'sci' }, '✱ ' + sum.science_wild) : null,
          ` = ${pointsNow(sum.science_points)}`),
        v.projects ? edificeCityLine(this, i, sum) : null,
        trade) : null,
      v.armada ? armadaCityBlock(this, i, role) : null,
      h('div', { class: 'wonder' },
        h('span', { class: 'wonder-name' }, wonderName(cat, c.wonder) + ' · ' + sideLabel(c.side)),
        w ? h('span', { class: 'muted' }, ' ', resIcon(w.start)) : null,
        h('ol', { class: 'stages' }, stages.map((x, k) => h('li', {
          class: 'stage' + (k < c.stages ? ' built' : k === c.stages ? ' next' : ''),
        }, k < c.stages ? '✓ ' : '', costIcons(0, x.cost), h('small', {}, withIcons(effectText(x))))))),
      h('div', { class: 'built' + (expanded ? ' expanded' : '') }, [...byColour].filter(([, l]) => l.length).map(([col, list]) => h('div', { class: 'row' },
        list.map(name => {
          const d = cardDef(cat, name);
          return h('span', { class: 'mini c-' + col, title: d ? effectText(d) : name }, cardName(cat, name),
            (expanded || role === 'mine') && d ? h('small', { class: 'mini-effect' }, ' · ', effectText(d)) : null);
        })))));
  }

  citiesPanel(over) {
    const st = this.state;
    const v = st.view;
    const n = v.cities.length;
    if (st.you === null || over) {
      return h('section', { class: 'panel cities' }, h('h2', {}, t('allCities')),
        h('div', { class: 'city-grid' }, v.cities.map((_, i) => this.cityPanel(i, st.you === i ? 'mine' : 'other', over))));
    }
    const me = st.you;
    const left = (me + 1) % n;
    const right = (me + n - 1) % n;
    const others = v.cities.map((_, i) => i).filter(i => i !== me && i !== left && i !== right);
    return h('section', { class: 'panel cities' },
      h('h2', {}, t('yourCity')), this.cityPanel(me, 'mine'),
      h('div', { class: 'neighbours' }, this.cityPanel(right, 'right'), left !== right ? this.cityPanel(left, 'left') : null),
      others.length ? h('details', { class: 'others' }, h('summary', {}, t('otherCities') + ` (${others.length})`),
        h('div', { class: 'city-grid' }, others.map(i => this.cityPanel(i, 'other')))) : null);
  }

  logText(e, trade) {
    const n = this.state.view.cities.length;
    const who = this.cityLabel(e.seat);
    const pay = [];
    if (e.left) pay.push(`${e.left} → ${this.cityLabel((e.seat + 1) % n)}`);
    if (e.right) pay.push(`${e.right} → ${this.cityLabel((e.seat + n - 1) % n)}`);
    if (e.bank && e.played !== 'armada_lost') pay.push(`${e.bank} → ${t('bank')}`);
    let what;
    switch (e.played) {
      case 'built': what = `${t('builtX')} ${cardName(this.cat, e.card)}`; break;
      case 'stage': what = `${t('stageX')} ${e.stage}`; break;
      case 'discarded': what = t('discardedX'); break;
      case 'built_discarded': what = `${t('builtX')} ${cardName(this.cat, e.card)} ${t('fromDiscard')}`; break;
      case 'passed': what = t('passedX'); break;
      case 'chose_side': what = `${t('choseSideX')} ${sideLabel(e.card)}`; break;
      default: what = edificeLogText(this, e) || armadaLogText(this, e) || (e.played + (e.card ? ' ' + e.card : ''));
    }
    // Income split: what the neighbours paid (trade), the discard's 3, and the card's own coins.
    const inc = [];
    const fromTrade = Math.min(trade || 0, e.income);
    const own = e.income - fromTrade;
    if (own) inc.push(`+${own} ${e.played === 'discarded' ? t('discardIncome') : t('cardIncome')}`);
    if (fromTrade) inc.push(`+${fromTrade} ${t('tradeIncome')}`);
    return `${who} ${what}` + (pay.length ? ` (${pay.join(', ')})` : '') + (inc.length ? ` · ${inc.join(', ')}` : '');
  }

  logPanel() {
    const st = this.state;
    const n = st.view.cities.length;
    const hist = st.history || [];
    const groups = [];
    for (const e of hist) {
      const key = e.age + '.' + e.turn + '.' + (e.played === 'built_discarded' || e.played === 'passed' ? 'd' : '');
      if (!groups.length || groups[groups.length - 1].key !== key) groups.push({ key, age: e.age, turn: e.turn, list: [] });
      groups[groups.length - 1].list.push(e);
    }
    // An Age-end block after each Age's last group.
    const blocks = [];
    const ends = new Map((st.age_ends || []).map(x => [x.age, x]));
    groups.forEach((g, k) => {
      blocks.push({ kind: 'turn', g });
      const next = groups[k + 1];
      if (ends.has(g.age) && (!next || next.age !== g.age) && g.turn !== 0) blocks.push({ kind: 'end', end: ends.get(g.age) });
    });
    blocks.reverse();
    return h('section', { class: 'panel log' }, h('h2', {}, t('log')),
      h('div', { class: 'log-list' }, blocks.map(b => {
        if (b.kind === 'end') {
          return h('div', { class: 'log-turn log-age-end' }, h('b', {}, `${t('ageEnd')} ${ROMAN[b.end.age]} — ${t('conflicts')}`),
            h('ul', {}, b.end.cities.map((c, i) => h('li', {}, `${this.cityLabel(i)} (${c.shields}⚔): `,
              [[c.left, (i + 1) % n], [c.right, (i + n - 1) % n]].map(([tok, o], k) => [k ? ', ' : '',
                tok ? tokenChip(tok) : h('span', { class: 'token tok-0' }, '0'), ` ${tok > 0 ? t('beat') : tok < 0 ? t('lostTo') : t('tie')} ${this.cityLabel(o)}`])))),
            armadaAgeEnd(this, b.end), edificeAgeEnd(this, b.end.age));
        }
        const g = b.g;
        const trade = tradeIncome(g.list, n);
        const title = g.turn === 0 ? t('setupSides') : `${t('age')} ${ROMAN[g.age] || g.age} · ${t('turn')} ${g.turn === turnsPerAge(this) + 1 ? turnsPerAge(this) + '+' : g.turn}`;
        return h('div', { class: 'log-turn' }, h('b', {}, title),
          h('ul', {}, g.list.map(e => h('li', {}, this.logText(e, trade[e.seat])))));
      })));
  }

  gameOverPanel() {
    const st = this.state;
    const exps = st.table.expansions || [];
    const cats = [...CATS, ...(exps.includes('edifice') ? ['edifice'] : []), ...(exps.includes('armada') ? ARMADA_CATS : [])];
    const lines = st.scores || [];
    const v = st.view;
    const rematchId = st.table.rematch;
    const ranked = lines.map((l, i) => ({ l, i })).filter(x => x.l.rank !== null && x.l.rank !== undefined);
    const players = ranked.length;
    const mine = st.you !== null ? lines[st.you] : null;
    const winners = ranked.filter(x => x.l.rank === 1).map(x => this.cityLabel(x.i));
    const headline = mine && mine.rank
      ? h('p', { class: 'finish', id: 'finish' }, zh() ? `${t('youFinished')}${ordinal(mine.rank)}（${t('of')} ${players} 人）`
        : `${t('youFinished')} ${ordinal(mine.rank)} ${t('of')} ${players}`, mine.rank === 1 ? ' 🏆' : '')
      : h('p', { class: 'finish' }, `${t('winnerIs')}: ${winners.join(', ')}`);
    return h('section', { class: 'panel scores' },
      h('h2', {}, t('scores')), headline, v.teams ? teamTotals(this, lines) : '',
      h('div', { class: 'table-scroll' }, h('table', { class: 'score-sheet' },
        h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, t('wonder')), cats.map(c => h('th', { class: 'cat-' + c }, t(c))),
          h('th', {}, t('total')), h('th', {}, t('coinsLeft')), h('th', {}, t('rank')))),
        h('tbody', {}, lines.map((l, i) => {
          const c = v.cities[i];
          return h('tr', { class: (l.rank === 1 ? 'winner' : '') + (st.you === i ? ' me' : '') },
            h('th', {}, this.cityLabel(i)),
            h('td', { class: 'wonder-cell' }, `${wonderName(this.cat, c.wonder)} ${sideLabel(c.side)} · ${c.stages}/${c.stages_total}`),
            cats.map(k => h('td', { class: 'cat-' + k }, l[k] ?? 0)),
            h('td', { class: 'cat-total' }, l.total), h('td', { class: 'coins-left' }, l.coins),
            h('td', { class: 'rank' }, l.rank === null || l.rank === undefined ? '–' : l.rank));
        })))),
      h('h3', {}, t('chart')), this.chart(lines),
      h('div', { class: 'after' },
        h('button', { class: 'primary', id: 'rematch', type: 'button', onclick: () => this.rematch() },
          rematchId ? t('joinRematch') : t('rematch')),
        ' ', h('a', { href: `/api/tables/${this.id}/record`, download: `wonders-${this.id}.json`, id: 'record' }, '⬇ ' + t('record'))));
  }

  // Each player's points by category as a stacked bar (negative military, naval or Edifice points
  // to the left of 0). The expansions' categories appear only at their tables.
  chart(lines) {
    const exps = this.state.table.expansions || [];
    const cats = [...CATS, ...(exps.includes('edifice') ? ['edifice'] : []), ...(exps.includes('armada') ? ARMADA_CATS : [])];
    const W = 640; const rowH = 26; const labelW = 110;
    const negOf = l => cats.reduce((a, k) => a + Math.max(0, -(l[k] || 0)), 0);
    const neg = Math.max(0, ...lines.map(negOf));
    const pos = Math.max(1, ...lines.map(l => cats.reduce((a, k) => a + Math.max(0, l[k] || 0), 0)));
    const scale = (W - labelW - 40) / (pos + neg);
    const x0 = labelW + neg * scale;
    const height = lines.length * rowH + 30;
    const rows = lines.map((l, i) => {
      let x = x0;
      let xn = x0;
      const y = i * rowH + 4;
      const bars = [];
      for (const k of cats) {
        const v = l[k] || 0;
        if (v >= 0) continue;
        xn += v * scale;
        bars.push(s('rect', { x: xn, y, width: -v * scale, height: rowH - 8, fill: CAT_COLOURS[k], opacity: 0.6, class: 'neg-' + k },
          s('title', {}, `${t(k)} ${v}`)));
      }
      for (const k of cats) {
        const val = Math.max(0, l[k] || 0);
        if (!val) continue;
        bars.push(s('rect', { x, y, width: val * scale, height: rowH - 8, fill: CAT_COLOURS[k] }, s('title', {}, `${t(k)} ${l[k]}`)));
        if (val * scale > 16) bars.push(s('text', { x: x + val * scale / 2, y: y + rowH / 2 + 1, 'text-anchor': 'middle', 'font-size': 10, fill: '#fff' }, val));
        x += val * scale;
      }
      return s('g', {}, s('text', { x: 4, y: y + rowH / 2 + 1, 'font-size': 12 }, this.cityLabel(i)), bars,
        s('text', { x: x + 4, y: y + rowH / 2 + 1, 'font-size': 12, 'font-weight': 700 }, l.total));
    });
    // The key: each label as wide as its text (about 6 px a letter at this size, 11 a CJK one).
    let lx = labelW - 40;
    const legend = cats.map(k => {
      const x = lx;
      lx += 24 + [...t(k)].reduce((a, ch) => a + (ch.charCodeAt(0) > 0x2e80 ? 11 : 6), 0);
      return s('g', {}, s('rect', { x, y: height - 18, width: 10, height: 10, fill: CAT_COLOURS[k] }),
        s('text', { x: x + 14, y: height - 9, 'font-size': 10 }, t(k)));
    });
    return s('svg', { class: 'chart', id: 'score-chart', viewBox: `0 0 ${W} ${height}`, role: 'img', 'aria-label': t('chart') },
      rows, s('line', { x1: x0, x2: x0, y1: 0, y2: lines.length * rowH, stroke: '#2b2418' }), legend);
  }

  async rematch() {
    try {
      const mine = store.token(this.id);
      const info = await api('POST', `/api/tables/${this.id}/rematch`, {}, mine && mine.token);
      if (mine && !store.token(info.id)) {
        const seat = info.seats[mine.seat];
        if (seat && !seat.taken) {
          const who = this.seatName(mine.seat);
          const tok = await api('POST', `/api/tables/${info.id}/seats/${mine.seat}`, { name: who }, mine.token);
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
  // The project the event is about: the entry's Age's, or an earlier one for an Ur pawn.
  const age = e.project_age || e.age;
  const p = (page.state.view.projects || [])[age - 1];
  const name = p ? (store.lang === 'zh' && p.zh ? p.zh : p.name) : ed('the project', '宏偉項目');
  switch (e.played) {
    case 'edifice_took_part': return ed(`took part in ${name}`, `參與了${name}`);
    case 'edifice_ur_pawn': return ed(`took an Age ${ROMAN[e.pawn_age]} pawn (Ur)`, `拿取了時代${ROMAN[e.pawn_age]}的參與棋子（烏爾）`);
    case 'edifice_rewarded': return age !== e.age
      ? ed(`joins ${name} (Age ${ROMAN[age]}, completed) with an Ur pawn: gains its reward`, `以烏爾的棋子加入已完成的${name}（時代${ROMAN[age]}）：獲得獎勵`)
      : ed(`${name} completed: gains its reward`, `${name}建造完成：獲得獎勵`);
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
      h('div', {}, ed('Take part: ', '參與費用：'), edText(p.cost), dagger(p, 'cost')),
      h('div', {}, ed('Reward: ', '獎勵：'), edText(p.reward), dagger(p, 'reward')),
      h('div', {}, ed('Penalty: ', '懲罰：'), edText(p.penalty), dagger(p, 'penalty')),
      h('div', { class: 'muted' }, ed('Holders: ', '持有者：'),
        p.holders.length ? p.holders.map(i => page.cityLabel(i)).join(', ') : '–')))),
    debts.length ? h('p', { class: 'muted' }, ed('Debt tokens: ', '負債標記：'), debts.join(' · ')) : null,
    h('p', { class: 'muted small' }, '† ', ed('provisional value: the rulebook\'s tables are lost and no printed source confirms it.',
      '暫定數值：規則書的表格遺失，沒有印刷來源確認。')));
}

// The project texts the server writes in English (edifice.rs Display), in Chinese.
const ED_COLOURS = { brown: '棕色', grey: '灰色', blue: '藍色', yellow: '黃色', red: '紅色', green: '綠色', purple: '紫色' };
function edText(text) {
  if (!zh() || !text) return text;
  const col = c => c.split('+').map(x => ED_COLOURS[x] || x).join('＋');
  const one = part => {
    const tr = [
      [/^(\d+) coins?$/, m => `${m[1]} 錢幣`],
      [/^(\d+) shields?$/, m => `${m[1]} 個盾牌`],
      [/^a \+(\d) military victory token$/, m => `一個 +${m[1]} 軍事勝利標記`],
      [/^discard your defeat tokens$/, () => '棄掉你的失敗標記'],
      [/^one of ([WSCOGLP/]+) each turn$/, m => `每回合生產 ${m[1]} 其中一種`],
      [/^(\d+) VP per own wonder stage at game end$/, m => `遊戲結束時每個已建奇蹟階段 ${m[1]} 分`],
      [/^(\d+) VP per own ([a-z+]+) card at game end$/, m => `遊戲結束時每張${col(m[2])}卡 ${m[1]} 分`],
      [/^(\d+) VP per own defeat token at game end$/, m => `遊戲結束時每個失敗標記 ${m[1]} 分`],
      [/^(\d+) VP per ([a-z+]+) set at game end$/, m => `遊戲結束時每組${col(m[2])} ${m[1]} 分`],
      [/^(\d+) VP per colour of card in your city at game end$/, m => `遊戲結束時城市中每種顏色的卡 ${m[1]} 分`],
      [/^score one of your purple cards twice at game end$/, () => '遊戲結束時一張紫色卡再計分一次'],
      [/^lose (\d+) coins$/, m => `失去 ${m[1]} 錢幣`],
      [/^discard a ([a-z]+) card$/, m => `棄掉一張${col(m[1])}卡`],
      [/^lose (\d+) military victory tokens$/, m => `失去 ${m[1]} 個軍事勝利標記`],
    ];
    for (const [re, f] of tr) { const m = part.match(re); if (m) return f(m); }
    return part;
  };
  return text.split(', ').map(one).join('，');
}

function projectName(p) { return p ? (zh() && p.zh ? p.zh : p.name) : ed('the project', '宏偉項目'); }

// The debt token of an Age as the token it is: −2, −3 or −5 VP (a dagger when provisional).
function debtChip(page, age) {
  const e = page.cat && page.cat.edifice;
  const v = e ? e.debt[age - 1] : null;
  return h('span', { class: 'token tok-debt', title: ed(`debt token of Age ${ROMAN[age]}`, `時代${ROMAN[age]}負債標記`) },
    v === null ? ROMAN[age] : '−' + v, e && e.debt_provisional[age - 1] ? h('sup', { class: 'provisional' }, '†') : null);
}

// A city's part in the great projects, for its summary: the pawns it holds (and whether each
// project was completed), its debt tokens, and what they are worth now.
function edificeCityLine(page, i, sum) {
  const v = page.state.view;
  const c = v.cities[i];
  const pawns = c.pawns || [];
  const debt = c.debt || [];
  const pawnItems = pawns.map(a => {
    const p = v.projects[a - 1];
    const mark = p && p.outcome === 'completed' ? ' ✓' : p && p.outcome === 'failed' ? ' ✗' : '';
    return h('span', { class: 'pawn pawn-' + (p ? p.outcome : 'open'), title: projectName(p) }, '♟ ' + ROMAN[a] + mark);
  });
  return h('div', { class: 'edifice-line' }, h('span', { class: 'muted' }, ed('Great projects: ', '宏偉項目：')),
    pawnItems.length ? pawnItems : h('span', { class: 'muted' }, ed('no pawn', '沒有棋子')),
    debt.length ? [' · ', ed('debt ', '負債 '), debt.map(a => debtChip(page, a))] : null,
    sum && sum.edifice_points ? h('span', { class: 'ed-points' }, ` = ${sum.edifice_points > 0 ? '+' : ''}${pointsNow(sum.edifice_points)}`) : null);
}

// What became of the project of `age`: completed (on which turn, who was rewarded) or failed
// (who was spared, who paid the penalty, discarded a card or took a debt token).
function edificeAgeEnd(page, age) {
  const v = page.state.view;
  const p = (v.projects || [])[age - 1];
  if (!p) return null;
  // What happened to the project by the end of its Age (an Ur pawn's later reward is in the log
  // at its own turn).
  const events = (page.state.history || []).filter(e => e.age === age && (e.project_age || e.age) === age
    && e.played.startsWith('edifice_')
    && e.played !== 'edifice_took_part' && e.played !== 'edifice_ur_pawn');
  const head = h('b', {}, ed('Great project ', '宏偉項目 '), `${ROMAN[age]} · ${projectName(p)}: `,
    h('span', { class: 'tag ' + p.outcome }, p.outcome === 'completed' ? ed('completed', '已完成')
      : p.outcome === 'failed' ? ed('failed', '失敗') : ed(`${p.pawns_left} pawns left`, `剩${p.pawns_left}個棋子`)));
  let lines = [];
  if (p.outcome === 'completed') {
    const rewarded = events.filter(e => e.played === 'edifice_rewarded');
    const turn = rewarded.length ? rewarded[0].turn : null;
    lines = [h('li', {}, (turn ? ed(`on turn ${turn}; `, `第 ${turn} 回合；`) : ''), ed('reward: ', '獎勵：'), edText(p.reward))]
      .concat(rewarded.map(e => h('li', { class: 'ed-rewarded' }, `${page.cityLabel(e.seat)}: `,
        ed('rewarded', '獲得獎勵'), e.income ? ` (+${coinsText(e.income)})` : '')));
  } else if (p.outcome === 'failed') {
    lines = [h('li', {}, ed('penalty: ', '懲罰：'), edText(p.penalty))].concat(events.map(e => {
      let what;
      switch (e.played) {
        case 'edifice_spared': what = ed('holds a pawn: no penalty', '持有棋子：不受懲罰'); break;
        case 'edifice_paid': what = [ed('paid: ', '已支付：'), edText(p.penalty)]; break;
        case 'edifice_discarded': what = ed(`discarded ${cardName(page.cat, e.card)}`, `棄掉了${cardName(page.cat, e.card)}`); break;
        case 'edifice_debt': what = [ed('could not pay: took a debt token ', '無法支付：拿取負債標記 '), debtChip(page, age)]; break;
        default: return null;
      }
      return h('li', { class: 'ed-' + e.played.slice(8) }, `${page.cityLabel(e.seat)}: `, what);
    }).filter(x => x));
  }
  return h('div', { class: 'edifice-age-end', dataset: { age } }, head, lines.length ? h('ul', {}, lines) : null);
}

// The failed project's "discard a card" penalty: the cards of the city it may discard, as cards.
function edificeDiscardPanel(page) {
  const st = page.state;
  const v = st.view;
  const p = (v.projects || [])[v.age - 1];
  const acts = st.legal.filter(a => a.type === 'discard_built');
  const me = st.you;
  return h('div', { class: 'edifice-discard', id: 'edifice-discard' },
    h('h3', {}, ed('The great project failed', '宏偉項目失敗'), ' — ', projectName(p)),
    h('p', {}, ed('Penalty: ', '懲罰：'), edText(p ? p.penalty : ''), '. ',
      acts.length ? ed('Choose the card of your city to discard:', '選擇你城市中要棄掉的牌：')
        : ed('Waiting for the player who must discard…', '等待需要棄牌的玩家…')),
    h('div', { class: 'cards' }, acts.map(a => page.cardBox(a.card, a.age, { city: me,
      controls: h('div', { class: 'card-actions' }, h('button', { class: 'act act-discard_built', type: 'button', disabled: page.pending,
        onclick: () => page.send(a) }, ed('Discard it', '棄掉這張'))) }))));
}

// ---------------------------------------------------------------- score pad

// The table being entered: the format `wonders score` reads. `freeCity`: 2 players and the
// Free City (1st edition; its row is the last); `edifice`: the expansion's projects, pawns, debt.
const pad = { edition: '1e', players: [], sheet: null, freeCity: false, edifice: false, projects: [] };

function padPlayer(i) {
  return { name: 'Player ' + (i + 1), wonder: '', side: 'A', stages: 0, cards: [], coins: 0, military: [], pawns: [], debt: [] };
}

// Turns the Free City variant on or off: 2 players and the Free City's row, in the 1st edition.
function padSetFreeCity(on) {
  pad.freeCity = on;
  pad.players.forEach(p => { delete p.free_city; });
  if (on) {
    pad.edition = '1e';
    pad.players = pad.players.slice(0, 2);
    while (pad.players.length < 2) pad.players.push(padPlayer(pad.players.length));
    const fc = padPlayer(2);
    fc.name = t('freeCity');
    fc.free_city = true;
    pad.players.push(fc);
  }
  pad.sheet = null;
}

function padEdificeProjects(cat, age) {
  return cat.edifice ? cat.edifice.projects.filter(p => p.age === age) : [];
}

async function scorePad(keep) {
  document.getElementById('conn').textContent = '';
  document.body.dataset.page = 'score';
  if (!keep && !pad.players.length) pad.players = [0, 1, 2].map(padPlayer);
  const cat = await catalog(pad.edition);
  if (!pad.players.some(p => p.wonder)) {
    pad.players.forEach((p, i) => { p.wonder = cat.wonderList[i % cat.wonderList.length].name; p.side = cat.wonderList[0].sides[0].label; });
  }
  if (pad.edifice) {
    for (let a = 1; a <= 3; a++) {
      const list = padEdificeProjects(cat, a);
      if (!pad.projects[a - 1] || !list.some(p => p.name === pad.projects[a - 1].name)) {
        pad.projects[a - 1] = { name: list.length ? list[0].name : '', completed: false };
      }
    }
  }
  const app = document.getElementById('app');
  const cardOptions = h('datalist', { id: 'card-names' }, cat.list.filter((c, k, all) => all.findIndex(o => o.name === c.name) === k)
    .map(c => h('option', { value: c.name }, zh() ? c.zh : `${c.name} (${c.colour}, ${ROMAN[c.age]})`)));
  const edition = h('select', { id: 'pad-edition', disabled: pad.freeCity, onchange: async ev => {
    pad.edition = ev.target.value;
    pad.players.forEach(p => { p.wonder = ''; p.cards = []; });
    pad.sheet = null;
    scorePad(true);
  } }, ['1e', '2e'].map(e => h('option', { value: e, selected: e === pad.edition }, editionLabel(e))));
  const freeCity = h('input', { type: 'checkbox', id: 'pad-free-city', checked: pad.freeCity, onchange: ev => {
    padSetFreeCity(ev.target.checked);
    if (!ev.target.checked) pad.players[2].name = 'Player 3';
    scorePad(true);
  } });
  const edifice = h('input', { type: 'checkbox', id: 'pad-edifice', checked: pad.edifice, onchange: ev => {
    pad.edifice = ev.target.checked;
    pad.sheet = null;
    scorePad(true);
  } });
  const rows = pad.players.map((p, i) => padRow(cat, p, i));
  const result = h('div', { id: 'pad-result' }, pad.sheet ? padSheet(pad.sheet) : null);
  const fileInput = h('input', { type: 'file', id: 'pad-file', accept: 'application/json,.json', onchange: ev => {
    const f = ev.target.files[0];
    if (!f) return;
    const reader = new FileReader();
    reader.onload = () => {
      try { loadPad(JSON.parse(reader.result)); } catch (e) { banner(e.message); }
    };
    reader.readAsText(f);
  } });
  app.replaceChildren(h('section', { class: 'panel pad' },
    h('h1', {}, t('scorePad')), h('p', { class: 'muted' }, t('scorePadIntro'), ' ', link('/', t('lobbyLink'))),
    h('div', { class: 'pad-options' },
      h('label', {}, t('edition') + ' ', edition),
      h('label', { class: 'check' }, freeCity, ' ', t('freeCityRow')),
      h('label', { class: 'check' }, edifice, ' ', ed('Edifice expansion', '穹樓擴充'))),
    cardOptions,
    pad.edifice ? padProjects(cat) : null,
    h('div', { class: 'pad-rows' }, rows),
    h('div', { class: 'after' },
      h('button', { type: 'button', id: 'pad-add', disabled: pad.freeCity || pad.players.length >= 7, onclick: () => { pad.players.push(padPlayer(pad.players.length)); scorePad(true); } }, '+ ' + t('addPlayer')),
      h('button', { type: 'button', class: 'primary', id: 'pad-score', onclick: () => scoreIt() }, t('scoreIt')),
      h('button', { type: 'button', id: 'pad-download', onclick: () => downloadPad() }, '⬇ ' + t('download')),
      h('label', { class: 'button' }, '⬆ ' + t('load') + ' ', fileInput)),
    result), h('section', { class: 'panel' }, resourceKey()));
}

// Edifice: the project of each Age, and whether it was completed.
function padProjects(cat) {
  return h('div', { class: 'pad-projects', id: 'pad-projects' },
    h('b', {}, ed('Great projects', '宏偉項目')), ' ',
    h('span', { class: 'muted' }, ed('(immediate rewards and penalties are already in the coins, cards and tokens you enter)',
      '（立即的獎勵與懲罰已包含在輸入的錢幣、卡牌與標記中）')),
    [1, 2, 3].map(a => {
      const cur = pad.projects[a - 1];
      const list = padEdificeProjects(cat, a);
      return h('div', { class: 'pad-line pad-project', dataset: { age: a } },
        h('span', {}, `${t('age')} ${ROMAN[a]} `),
        h('select', { class: 'pad-project-name', 'aria-label': `${t('age')} ${ROMAN[a]}`, onchange: ev => { cur.name = ev.target.value; pad.sheet = null; scorePad(true); } },
          list.map(p => h('option', { value: p.name, selected: p.name === cur.name }, (zh() && p.zh ? p.zh : p.name) + (p.provisional ? ' †' : '')))),
        h('label', { class: 'check' }, h('input', { type: 'checkbox', class: 'pad-project-done', checked: cur.completed,
          onchange: ev => { cur.completed = ev.target.checked; pad.sheet = null; } }), ' ', ed('completed', '已完成')),
        (() => { const d = list.find(p => p.name === cur.name); return d ? h('small', { class: 'muted' }, ' ', ed('reward: ', '獎勵：'), edText(d.reward)) : null; })());
    }));
}

function padTable() {
  const players = pad.players.map(p => {
    const o = { name: p.name, wonder: p.wonder, side: p.side, stages: p.stages, cards: p.cards, coins: p.coins, military: p.military };
    if (p.free_city) o.free_city = true;
    if (pad.edifice) { o.pawns = p.pawns || []; o.debt = p.debt || []; }
    if (p.second_effects && p.second_effects.length) o.second_effects = p.second_effects;
    return o;
  });
  const table = { edition: pad.edition, players };
  if (pad.edifice) {
    table.expansions = ['edifice'];
    table.projects = pad.projects.map(p => ({ name: p.name, completed: !!p.completed }));
  }
  return table;
}

function loadPad(table) {
  if (!table || !Array.isArray(table.players)) throw new Error('not a table: it needs a "players" list');
  pad.edition = table.edition || '1e';
  pad.players = table.players.map((p, i) => Object.assign(padPlayer(i), p,
    { cards: p.cards || [], military: p.military || [], pawns: p.pawns || [], debt: p.debt || [] }));
  pad.freeCity = pad.players.some(p => p.free_city);
  pad.edifice = (table.expansions || []).includes('edifice');
  pad.projects = (table.projects || []).map(p => ({ name: p.name, completed: !!p.completed }));
  pad.sheet = null;
  scorePad(true);
}

function downloadPad() {
  const blob = new Blob([JSON.stringify(padTable(), null, 1)], { type: 'application/json' });
  const a = h('a', { href: URL.createObjectURL(blob), download: 'table.json' });
  document.body.append(a);
  a.click();
  a.remove();
}

async function scoreIt() {
  try {
    pad.sheet = await api('POST', '/api/score', padTable());
    banner(null);
    document.getElementById('pad-result').replaceChildren(padSheet(pad.sheet));
  } catch (e) {
    banner(e.message);
    document.getElementById('pad-result').replaceChildren(h('p', { class: 'error', id: 'pad-error' }, e.message));
  }
}

function padSheet(sheet) {
  // Armada's categories are in the answer only when some player scores in them.
  const cats = [...CATS, ...(pad.edifice ? ['edifice'] : []), ...ARMADA_CATS.filter(k => sheet.players.some(l => l[k]))];
  return h('div', { class: 'table-scroll' }, h('table', { class: 'score-sheet', id: 'pad-sheet' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), cats.map(c => h('th', { class: 'cat-' + c }, t(c))), h('th', {}, t('total')),
      h('th', {}, t('coinsLeft')), h('th', {}, t('rank')))),
    h('tbody', {}, sheet.players.map((l, i) => {
      const fc = pad.players[i] && pad.players[i].free_city;
      return h('tr', { class: (l.rank === 1 ? 'winner' : '') + (fc ? ' free-city' : '') },
        h('th', {}, l.name, fc && l.name !== t('freeCity') ? [' ', h('span', { class: 'tag' }, t('freeCity'))] : null),
        cats.map(k => h('td', { class: 'cat-' + k }, l[k] ?? 0)),
        h('td', { class: 'cat-total' }, l.total), h('td', {}, l.coins), h('td', { class: 'rank' }, l.rank === null ? '–' : l.rank));
    }))));
}

function padRow(cat, p, i) {
  const w = cat.wonders.get(p.wonder);
  const sides = w ? w.sides : cat.wonderList[0].sides;
  const side = sides.find(x => x.label === p.side) || sides[0];
  const upd = (k, f) => ev => { p[k] = f ? f(ev.target.value) : ev.target.value; };
  const wonderSel = h('select', { class: 'pad-wonder', 'aria-label': t('wonder'), onchange: ev => { p.wonder = ev.target.value; p.stages = 0; scorePad(true); } },
    cat.wonderList.map(x => h('option', { value: x.name, selected: x.name === p.wonder }, zh() ? x.zh : x.name)));
  const sideSel = h('select', { class: 'pad-side', 'aria-label': t('side'), onchange: ev => { p.side = ev.target.value; p.stages = 0; scorePad(true); } },
    sides.map(x => h('option', { value: x.label, selected: x.label === side.label }, sideLabel(x.label))));
  const stages = h('select', { class: 'pad-stages', 'aria-label': t('stages'), onchange: upd('stages', Number) },
    Array.from({ length: side.stages.length + 1 }, (_, k) => h('option', { value: k, selected: k === p.stages }, k + '/' + side.stages.length)));
  const search = h('input', { class: 'pad-card', list: 'card-names', placeholder: t('searchCard'), 'aria-label': t('searchCard') });
  const addCard = () => {
    const v = search.value.trim();
    if (!v) return;
    const d = cat.list.find(c => c.name.toLowerCase() === v.toLowerCase() || c.zh === v);
    const name = d ? d.name : v;
    if (!p.cards.includes(name)) p.cards.push(name);
    scorePad(true);
    const again = document.querySelectorAll('.pad-card')[i];
    if (again) again.focus();
  };
  search.addEventListener('keydown', ev => { if (ev.key === 'Enter') { ev.preventDefault(); addCard(); } });
  search.addEventListener('change', () => { if (cat.list.some(c => c.name === search.value.trim())) addCard(); });
  const tokenCount = v => p.military.filter(x => x === v).length;
  const tokenInput = v => h('label', { class: 'tok-input' }, tokenChip(v), ' ×', h('input', { type: 'number', min: 0, max: 6, value: tokenCount(v), class: 'pad-tok-' + (v < 0 ? 'm1' : v),
    onchange: ev => { p.military = p.military.filter(x => x !== v).concat(new Array(Math.max(0, Number(ev.target.value) || 0)).fill(v)); } }));
  // Edifice: pawns and debt tokens by Age, as counts (the table lists one Age per item).
  const ageCount = (key, a, label) => h('label', { class: 'tok-input' }, label, ' ×', h('input', { type: 'number', min: 0, max: 3,
    value: (p[key] || []).filter(x => x === a).length, class: `pad-${key}-${a}`, 'aria-label': `${key} ${ROMAN[a]}`,
    onchange: ev => { p[key] = (p[key] || []).filter(x => x !== a).concat(new Array(Math.max(0, Math.min(3, Number(ev.target.value) || 0))).fill(a)).sort(); } }));
  return h('div', { class: 'pad-row city' + (p.free_city ? ' free-city' : ''), dataset: { row: i } },
    h('div', { class: 'pad-line' },
      p.free_city ? h('span', { class: 'tag free-city-tag' }, t('freeCity')) : h('b', {}, '#' + (i + 1)),
      h('input', { class: 'pad-name', value: p.name, maxlength: 32, 'aria-label': t('name'), onchange: upd('name') }),
      wonderSel, sideSel, h('label', {}, t('stages') + ' ', stages),
      h('label', {}, coinIcon('¤'), ' ', h('input', { class: 'pad-coins', type: 'number', min: 0, max: 999, value: p.coins, 'aria-label': t('coins'), onchange: upd('coins', Number) })),
      pad.players.length > 3 ? h('button', { type: 'button', onclick: () => { pad.players.splice(i, 1); scorePad(true); } }, t('remove')) : null),
    h('div', { class: 'pad-line' }, h('span', { class: 'muted' }, t('tokensHelp') + ': '), [1, 3, 5, -1].map(tokenInput)),
    pad.edifice ? h('div', { class: 'pad-line pad-edifice' },
      h('span', { class: 'muted' }, ed('pawns', '參與棋子') + ': '), [1, 2, 3].map(a => ageCount('pawns', a, '♟ ' + ROMAN[a])),
      h('span', { class: 'muted' }, ' ' + ed('debt tokens', '負債標記') + ': '), [1, 2, 3].map(a => ageCount('debt', a, ROMAN[a]))) : null,
    h('div', { class: 'pad-line' }, search, h('button', { type: 'button', class: 'pad-add-card', onclick: addCard }, t('add'))),
    h('div', { class: 'row pad-cards' }, p.cards.map((name, k) => {
      const d = cardDef(cat, name);
      return h('span', { class: 'mini c-' + (d ? d.colour : 'grey') }, cardName(cat, name), ' ',
        h('button', { type: 'button', class: 'x', 'aria-label': t('remove'), onclick: () => { p.cards.splice(k, 1); scorePad(true); } }, '×'));
    })));
}

// ---------------------------------------------------------------- start

document.querySelector('.top .spacer').before(h('a', { href: '/score', id: 'nav-score', class: 'nav', onclick: ev => { ev.preventDefault(); go('/score'); } }, t('scorePad')));
paintLangButton();
route();

// The team variant (4 or 6 players; seats 2k and 2k+1 together).
TEXT.team = ['Team', '隊伍'];
TEXT.teammate = ['your teammate', '你的隊友'];

function teamsLobbyOption(box) {
  return h('label', { class: 'teams-option', title: ed(
    'Team game (4 or 6 players): seats 1+2, 3+4, 5+6 play together; teammates see each other\'s hand; land conflicts only against the adjacent opponent, with double tokens; the team with the highest summed score wins.',
    '團隊遊戲（4或6人）：座位1+2、3+4、5+6為隊友；隊友可看見彼此的手牌；只與相鄰對手進行地面衝突，標記加倍；總分最高的隊伍獲勝。') },
  box, ' ', ed('Team game', '團隊遊戲'));
}

// The teammate's hand, which teammates may show each other (000 團隊遊戲規則).
function teammatePanel(page) {
  const st = page.state;
  const mate = st.you ^ 1;
  return h('section', { class: 'panel teammate', id: 'teammate-hand' },
    h('h2', {}, `${ed('Hand of', '手牌：')} ${page.cityLabel(mate)}`),
    h('ul', { class: 'teammate-cards' }, st.view.teammate_hand.map(c => h('li', {}, cardName(page.cat, c)))));
}

// Team totals at game over: the sum of both players; ranks as the server gives them.
function teamTotals(page, lines) {
  const rows = [];
  for (let k = 0; k + 1 < lines.length; k += 2) {
    rows.push(h('tr', { class: lines[k].rank === 1 ? 'winner' : '' },
      h('th', {}, `${t('team')} ${k / 2 + 1}: ${page.seatName(k)} + ${page.seatName(k + 1)}`),
      h('td', { class: 'cat-total' }, lines[k].total + lines[k + 1].total),
      h('td', { class: 'coins-left' }, lines[k].coins + lines[k + 1].coins),
      h('td', { class: 'rank' }, lines[k].rank)));
  }
  return h('table', { class: 'team-totals', id: 'team-totals' },
    h('thead', {}, h('tr', {}, h('th', {}, t('team')), h('th', {}, t('total')), h('th', {}, t('coinsLeft')), h('th', {}, t('rank')))),
    h('tbody', {}, rows));
}

// ---------------------------------------------------------------- Armada (issue 9)
// Self-contained, like Edifice's: the lobby option, each city's shipyard (four tracks, the ships,
// the next step's cost and effect, the wonder symbol), its islands, naval strength, trade level
// and naval tokens; the fleets at a glance; the naval construction in the payment chooser; the
// yellow-move discard; the exploration as a card choice; Forgotten Port's yes/no; the naval
// conflicts and incursions of each Age end. Values armada.md §10 supplies (no printed source)
// carry a dagger with its explanation.

TEXT.armada = ['Armada', '艦隊'];
const FLEETS = ['red', 'yellow', 'blue', 'green'];
const FLEET_NAMES = { red: ['red', '紅色'], yellow: ['yellow', '黃色'], blue: ['blue', '藍色'], green: ['green', '綠色'] };
function fleetName(f) { const p = FLEET_NAMES[f]; return p ? ed(p[0], p[1]) : f; }
function expansionLabel(x) { return TEXT[x] ? t(x) : x; }

function armadaDagger() {
  return h('sup', { class: 'provisional', title: ed(
    'provisional: no printed source confirms this value (armada.md §10); the engine uses a working value',
    '暫定：沒有印刷來源確認此數值（armada.md §10）；引擎使用暫定值') }, '†');
}

function armadaLobbyOption(box) {
  return h('label', { class: 'armada-option', title: ed(
    'Armada (2018): shipyards and fleets, naval conflicts, islands, taxes and piracy; 3–8 players (8 only with Armada). Its board costs and some card values are provisional (no printed source).',
    '艦隊（2018）：船塢與艦隊、海軍衝突、島嶼、稅收與海盜；3–8人（8人僅限艦隊）。船塢費用與部分卡牌數值為暫定（無印刷來源）。') },
  box, ' ', ed('Armada expansion', '艦隊擴充'));
}

// What a track space gives, in words (values of armada.md §4, §10.2).
function trackText(g) {
  if (!g) return '';
  const parts = [];
  if (g.naval) parts.push(ed(`naval +${g.naval}`, `海軍 +${g.naval}`));
  if (g.trade) parts.push(ed(`trade level ${g.trade}`, `貿易等級 ${g.trade}`));
  if (g.coins) parts.push(ed(`+${g.coins} coins`, `+${g.coins} 錢幣`));
  if (g.tax) parts.push(ed(`tax ${g.tax}`, `徵稅 ${g.tax}`));
  if (g.points) parts.push(ed(`${g.points} VP`, `${g.points} 分`));
  if (g.explore) parts.push(ed(`explore a level ${g.explore} island`, `探索 ${g.explore} 級島嶼`));
  return parts.length ? parts.join(', ') : ed('nothing', '無');
}

function armadaShip(page, city, fleet) {
  const a = page.state.view.armada;
  const c = a && a.cities[city];
  return c ? c.ships.find(s => s.fleet === fleet) : null;
}

// The naval construction of an action, for the payment chooser: the ship, the step it reaches
// and that step's cost (included in the coins of the way to pay).
function navalPart(page, city, a) {
  const parts = [];
  if (a.naval) {
    const ship = armadaShip(page, city, a.naval);
    const next = ship && ship.next;
    parts.push([`⚓ ${ed(`${fleetName(a.naval)} ship → step ${next ? next.step : '?'}`, `${fleetName(a.naval)}船 → 第 ${next ? next.step : '?'} 格`)}`,
      next && (next.coins || next.resources) ? [' (', costIcons(next.coins || 0, next.resources || ''), next.cost_provisional ? armadaDagger() : null, ')'] : ed(' (free)', '（免費）')]);
  }
  if (a.free_move) parts.push(ed(`free move: ${fleetName(a.free_move)} ship +1 step`, `免費移動：${fleetName(a.free_move)}船前進1格`));
  return parts;
}

// East / West Trading Zones: coins to the 2nd player on either side (absent or 0 otherwise).
function secondParts(page, city, a) {
  const n = page.state.view.cities.length;
  const parts = [];
  if (a.second_left) parts.push(`${a.second_left} → ${page.cityLabel((city + 2) % n)}`);
  if (a.second_right) parts.push(`${a.second_right} → ${page.cityLabel((city + 2 * n - 2) % n)}`);
  return parts;
}

// Groups build or wonder actions by their naval construction and free move.
function navalGroups(actions) {
  const groups = new Map();
  for (const a of actions) {
    const key = (a.naval || '') + '|' + (a.free_move || '');
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(a);
  }
  return [...groups].sort(([x], [y]) => (x === '|' ? -1 : y === '|' ? 1 : x < y ? -1 : 1));
}

function navalLabel(page, city, base, a) {
  if (!a.naval && !a.free_move) return base;
  const extra = [];
  if (a.naval) extra.push(ed(` + ⚓ ${fleetName(a.naval)} ship`, ` + ⚓ ${fleetName(a.naval)}船`));
  if (a.free_move) extra.push(ed(` + free move ${fleetName(a.free_move)}`, ` + 免費移動${fleetName(a.free_move)}`));
  return base + extra.join('');
}

// One city's shipyard: the four tracks (7 spaces each, the ship on its step), the next step's
// cost and what it gives, the wonder symbol; naval strength, trade level, fleet VP, naval
// tokens and islands.
function armadaCityBlock(page, i, role) {
  const a = page.state.view.armada;
  const c = a && a.cities[i];
  if (!c) return null;
  const rows = c.ships.map(s => h('div', { class: 'ship-row f-' + s.fleet, dataset: { fleet: s.fleet, step: s.step } },
    h('span', { class: 'fleet-name' }, fleetName(s.fleet), s.wonder ? h('span', { class: 'wonder-mark', title: ed('wonder symbol: a wonder stage moves this ship', '奇蹟標誌：建造奇蹟階段時移動此船') }, ' ★') : null),
    h('span', { class: 'track', title: `${s.step}/6` }, [0, 1, 2, 3, 4, 5, 6].map(k => h('span', { class: 'space' + (k < s.step ? ' passed' : k === s.step ? ' ship' : '') }, k === s.step ? '●' : ''))),
    h('span', { class: 'step-num' }, `${s.step}/6`),
    h('span', { class: 'next-step' }, s.next
      ? [h('span', { class: 'muted' }, ed('next: ', '下一格：')), s.next.coins || s.next.resources ? costIcons(s.next.coins || 0, s.next.resources || '') : ed('free', '免費'),
        s.next.cost_provisional ? armadaDagger() : null, ' → ', trackText(s.next.gives), s.next.gives.provisional ? armadaDagger() : null]
      : h('span', { class: 'muted' }, ed('at the top', '已到頂')))));
  const tokens = c.naval_tokens.map((v, k) => (v ? h('span', { title: ed(`naval token, Age ${ROMAN[k + 1]}`, `海軍標記，時代${ROMAN[k + 1]}`) }, tokenChip(v)) : null)).filter(Boolean);
  return h('div', { class: 'shipyard' + (role === 'mine' ? ' mine' : ''), dataset: { city: i } },
    h('div', { class: 'shipyard-head' },
      h('b', {}, ed(`Shipyard ${c.board}`, `船塢 ${c.board}`)), c.provisional ? armadaDagger() : null, ' ',
      h('span', { class: 'naval-strength', title: ed('naval strength (red fleet and naval symbols)', '海軍實力（紅色艦隊與海軍標誌）') }, `⚓ ${c.naval_strength}`), ' ',
      h('span', { class: 'trade-level', title: ed('trade level (yellow fleet)', '貿易等級（黃色艦隊）') }, ed(`trade ${c.trade_level}`, `貿易 ${c.trade_level}`)), ' ',
      c.fleet_points ? h('span', { class: 'fleet-points' }, ed(`fleet ${c.fleet_points} VP`, `艦隊 ${c.fleet_points} 分`)) : null, ' ',
      tokens.length ? h('span', { class: 'naval-tokens' }, ed('naval: ', '海軍：'), tokens) : null),
    h('div', { class: 'ships' }, rows),
    c.islands.length ? h('div', { class: 'islands' }, h('span', { class: 'muted' }, ed('Islands: ', '島嶼：')),
      c.islands.map(x => h('span', { class: 'island-chip', title: x.effect }, islandName(x), ` (${x.level})`,
        x.provisional ? armadaDagger() : null, h('small', {}, ' · ' + x.effect)))) : null);
}

function islandName(x) { return zh() ? `${x.zh}（${x.name}）` : `${x.name} (${x.zh})`; }

// The fleets of every city side by side, with the island decks: who leads the naval conflict,
// who taxes and who suffers from pirates.
function armadaPanel(page) {
  const a = page.state.view.armada;
  if (!a) return null;
  return h('section', { class: 'panel fleets', id: 'fleets' },
    h('h2', {}, ed('Fleets', '艦隊'), ' ', h('span', { class: 'muted' }, ed(
      `· island decks ${a.deck_sizes.join(' / ')}`, `· 島嶼牌堆 ${a.deck_sizes.join(' / ')}`))),
    h('div', { class: 'table-scroll' }, h('table', { class: 'fleet-table' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), FLEETS.map(f => h('th', { class: 'f-' + f }, fleetName(f))),
        h('th', {}, ed('⚓ naval', '⚓ 海軍')), h('th', {}, ed('trade', '貿易')), h('th', {}, ed('islands', '島嶼')), h('th', {}, ed('tokens', '標記')))),
      h('tbody', {}, a.cities.map((c, i) => h('tr', { class: page.state.you === i ? 'me' : '', dataset: { city: i } },
        h('th', {}, page.cityLabel(i)),
        c.ships.map(s => h('td', { class: 'f-' + s.fleet, dataset: { fleet: s.fleet } }, `${s.step}/6`, s.wonder ? ' ★' : '')),
        h('td', {}, c.naval_strength), h('td', {}, c.trade_level), h('td', {}, c.islands.length),
        h('td', {}, c.naval_tokens.filter(Boolean).map(tokenChip))))))),
    h('p', { class: 'muted fleet-key' }, ed('★ the fleet with the wonder symbol: building a wonder stage may move its ship. ⚓ naval strength decides the naval conflict at each Age end; a tax costs you (tax − your trade level) coins, pirates 1 coin per trade level (armada.md §2.7).',
      '★ 有奇蹟標誌的艦隊：建造奇蹟階段時可移動此船。⚓ 海軍實力決定每個時代結束時的海軍衝突；稅收使你失去（稅額 − 你的貿易等級）錢幣，海盜使你每貿易等級失去 1 錢幣（armada.md §2.7）。')),
    a.incursions && a.incursions.length ? h('p', { class: 'note' }, ed('Incursions this Age: ', '本時代的侵襲：'),
      a.incursions.map((x, k) => [k ? ', ' : '', `${page.cityLabel(x.holder)} → ${page.cityLabel(x.target)}`])) : null,
    armadaExplorationNote(page, a),
    a.stay_out && a.stay_out.length ? h('p', { class: 'note stay-out' }, ed('Staying out of this Age\'s naval conflict (Forgotten Port): ', '不參與本時代海軍衝突（遺忘港）：'),
      a.stay_out.map(c => page.cityLabel(c)).join(', ')) : null);
}

// The exploration under way and those still due this turn, as the whole table sees them
// (armada.md §2.6): who chooses among how many islands, the islands kept so far (face up), who
// explores next; the islands a player holds stay hidden from the others.
function armadaExplorationNote(page, a) {
  const e = a.exploring;
  const due = a.explore_due || [];
  if (!e && !due.length) return null;
  const parts = [];
  if (e) {
    const [first, ...rest] = e.waiting;
    parts.push(ed(`Exploration, level ${e.level}: `, `探索 ${e.level} 級：`));
    if (first) parts.push(ed(`${page.cityLabel(first.city)} chooses among ${first.cards} island${first.cards === 1 ? '' : 's'}`,
      `${page.cityLabel(first.city)}從 ${first.cards} 張島嶼中選擇`));
    if (rest.length) parts.push(ed('; then ', '；接著 '), rest.map(w => `${page.cityLabel(w.city)} (${w.cards})`).join(', '));
    if (e.kept && e.kept.length) parts.push(ed('. Kept: ', '。已保留：'), e.kept.map(islandName).join(', '));
    parts.push('.');
  }
  if (due.length) parts.push(e ? ' ' : '', ed('Still to explore this turn: ', '本回合尚待探索：'),
    due.map(d => ed(`${page.cityLabel(d.city)} (level ${d.level})`, `${page.cityLabel(d.city)}（${d.level} 級）`)).join(', '), '.');
  return h('p', { class: 'note exploring', id: 'exploring' }, parts);
}

// Exploration (armada.md §2.6): the islands dealt to this player drawn as cards; keep one, with
// the ships its free moves advance.
function armadaExplorePanel(page) {
  const st = page.state;
  const a = st.view.armada;
  const dealt = (a && a.dealt) || [];
  const legal = st.legal.filter(x => x.type === 'choose_island');
  return h('div', { class: 'explore', id: 'explore' },
    h('h3', {}, ed('Exploration: keep one island', '探索：保留一張島嶼')),
    h('p', { class: 'note' }, ed('The others go back under the deck. Free ship moves of the island are chosen now.',
      '其餘島嶼放回牌堆底。島嶼的免費移動現在選擇。')),
    h('div', { class: 'cards islands-dealt' }, dealt.map(x => {
      const acts = legal.filter(l => l.island === x.name || l.island === x.zh);
      return h('div', { class: 'card island-card', dataset: { island: x.name } },
        h('div', { class: 'card-head' }, h('span', { class: 'card-name' }, islandName(x)), h('span', { class: 'tag' }, ed(`level ${x.level}`, `${x.level} 級`)),
          x.provisional ? armadaDagger() : null),
        h('div', { class: 'card-effect' }, x.effect),
        h('div', { class: 'card-actions' }, acts.map(l => h('button', { class: 'act act-choose_island primary', type: 'button', disabled: page.pending, onclick: () => page.send(l) },
          ed('Keep', '保留'), (l.moves || []).length ? ed(` · move ${l.moves.map(fleetName).join(' + ')}`, ` · 移動 ${l.moves.map(fleetName).join(' + ')}`) : ''))));
    })));
}

// White-Surf Port or Tempest Archipelago brought by a green card (000: "any 2 or 3 different
// ships"): the island is in the city; its owner chooses the ships its free moves advance.
function armadaIslandMovesPanel(page) {
  const st = page.state;
  const a = st.view.armada;
  const due = ((a && a.moves_due) || []).find(d => d.city === st.you);
  const legal = st.legal.filter(x => x.type === 'choose_island');
  return h('div', { class: 'explore', id: 'island-moves' },
    h('h3', {}, ed('Your island\'s free moves: choose the ships', '島嶼的免費移動：選擇船隻')),
    due ? h('div', { class: 'card island-card', dataset: { island: due.island.name } },
      h('div', { class: 'card-head' }, h('span', { class: 'card-name' }, islandName(due.island)), h('span', { class: 'tag' }, ed(`level ${due.island.level}`, `${due.island.level} 級`)),
        due.island.provisional ? armadaDagger() : null),
      h('div', { class: 'card-effect' }, due.island.effect)) : null,
    h('p', { class: 'note' }, ed('Each chosen ship moves one step, each a different ship.', '每艘選擇的船隻前進一格，各為不同的船隻。')),
    h('div', { class: 'card-actions' }, legal.map(l => h('button', { class: 'act act-choose_island primary', type: 'button', disabled: page.pending, onclick: () => page.send(l) },
      ed(`Move ${(l.moves || []).map(fleetName).join(' + ')}`, `移動 ${(l.moves || []).map(fleetName).join(' + ')}`)))));
}

// Forgotten Port (armada.md §6): stay out of this Age's naval conflict, or take part.
function armadaOptOutPanel(page) {
  const st = page.state;
  const me = st.view.armada && st.view.armada.cities[st.you];
  const find = b => st.legal.find(x => x.type === 'stay_out_of_naval' && x.stay_out === b);
  const yes = find(true);
  const no = find(false);
  return h('div', { class: 'opt-out', id: 'naval-opt-out' },
    h('h3', {}, ed('Forgotten Port: take part in this Age\'s naval conflict?', '遺忘港：參與本時代的海軍衝突嗎？')),
    me ? h('p', {}, ed(`Your naval strength: ⚓ ${me.naval_strength}. Staying out, your strength is ignored: you win no token and take no defeat.`,
      `你的海軍實力：⚓ ${me.naval_strength}。不參與時，你的實力不計：不得勝利標記，也不受失敗標記。`)) : null,
    h('div', { class: 'card-actions' },
      no ? h('button', { class: 'act primary', id: 'naval-take-part', type: 'button', disabled: page.pending, onclick: () => page.send(no) }, ed('Yes, take part', '是，參與')) : null,
      yes ? h('button', { class: 'act', id: 'naval-stay-out', type: 'button', disabled: page.pending, onclick: () => page.send(yes) }, ed('No, stay out', '否，不參與')) : null));
}

// The naval conflict and the incursions of an Age end (armada.md §2.5, §2.8), from the server's
// record of that Age end.
function armadaAgeEnd(page, end) {
  if (!end.cities.some(c => c.naval)) return null;
  const incursions = [];
  end.cities.forEach((c, i) => (c.incursions || []).forEach(x => {
    if (i < x.against || !end.cities[x.against].incursions) incursions.push({ a: i, b: x.against, pa: x.points, pb: ((end.cities[x.against].incursions || []).find(y => y.against === i) || {}).points });
  }));
  const hist = (page.state.history || []).filter(e => e.age === end.age);
  const out = new Set(hist.filter(e => e.played === 'armada_stayed_out').map(e => e.seat));
  const lost = end.cities.map(() => ({ tax: 0, piracy: 0, paid: 0, immune: 0 }));
  for (const e of hist) {
    if (e.played === 'armada_lost' && lost[e.seat]) {
      lost[e.seat].tax += (e.armada && e.armada.tax) || 0;
      lost[e.seat].piracy += (e.armada && e.armada.piracy) || 0;
      lost[e.seat].paid += e.bank || 0;
    }
    if (e.played === 'armada_immune' && lost[e.seat]) lost[e.seat].immune += (e.armada && e.armada.owed) || 0;
  }
  const anyLoss = lost.some(l => l.tax || l.piracy || l.immune);
  return h('div', { class: 'armada-age-end', dataset: { age: end.age } },
    h('b', {}, ed('Naval conflict', '海軍衝突')),
    h('ul', { class: 'naval-results' }, end.cities.map((c, i) => (c.naval ? h('li', { dataset: { city: i, strength: c.naval.strength, token: c.naval.token } },
      `${page.cityLabel(i)} ⚓ ${c.naval.strength}: `, out.has(i) ? h('span', { class: 'muted' }, ed('stayed out (Forgotten Port)', '不參與（遺忘港）'))
        : c.naval.token ? tokenChip(c.naval.token) : h('span', { class: 'token tok-0' }, '0')) : null))),
    anyLoss ? [h('b', {}, ed('Coins lost this Age to taxes and pirates', '本時代因稅收與海盜失去的錢幣')),
      h('ul', { class: 'coin-losses' }, lost.map((l, i) => (l.tax || l.piracy || l.immune ? h('li', { dataset: { city: i, paid: l.paid } },
        `${page.cityLabel(i)}: `, ed(`tax ${l.tax}, pirates ${l.piracy}, paid ${l.paid}`, `稅 ${l.tax}，海盜 ${l.piracy}，實付 ${l.paid}`),
        l.immune ? ed(` (Misty Isle spared ${l.immune})`, `（迷霧島免除 ${l.immune}）`) : '') : null)))] : null,
    incursions.length ? [h('b', {}, ed('Incursions', '侵襲')), h('ul', { class: 'incursions' }, incursions.map(x => h('li', {},
      `${page.cityLabel(x.a)} (${end.cities[x.a].shields}⚔) ${ed('vs', '對')} ${page.cityLabel(x.b)} (${end.cities[x.b].shields}⚔): `,
      x.pa ? tokenChip(x.pa) : '0', ' / ', x.pb ? tokenChip(x.pb) : '0')))] : null);
}

// Turns in an Age: 6, 7 with Armada's 8-card hands, 6 again with 8 players (armada.md §2.2).
function turnsPerAge(page) {
  const v = page.state.view;
  if (!v || !v.armada) return 6;
  return v.cities.length >= 8 ? 6 : 7;
}

// The Armada events of the core's public log (`played` = `armada_` + kind, values in `armada`).
function armadaLogText(page, e) {
  if (!e.played.startsWith('armada_')) return '';
  const a = e.armada || {};
  const ship = a.fleet ? ed(`${fleetName(a.fleet)} ship`, `${fleetName(a.fleet)}船`) : '';
  const island = a.island ? (zh() ? (a.island_zh || a.island) : a.island) : '';
  const who = x => page.cityLabel(x);
  switch (e.played) {
    case 'armada_construction': return ed(`naval construction: ${ship} to step ${a.to}`, `海軍建設：${ship}前進到第 ${a.to} 格`);
    case 'armada_discard_move': return ed(`discard: yellow ship to step ${a.to}`, `棄牌：黃色船前進到第 ${a.to} 格`);
    case 'armada_free_move': return ed(`free move (card): ${ship} to step ${a.to}`, `免費移動（卡牌）：${ship}前進到第 ${a.to} 格`);
    case 'armada_island_move': return ed(`free move (island): ${ship} to step ${a.to}`, `免費移動（島嶼）：${ship}前進到第 ${a.to} 格`);
    case 'armada_explored': return ed(`explored and kept ${island}`, `探索並保留${island}`);
    case 'armada_explored_nothing': return ed(`explored level ${a.level}: the deck is empty`, `探索 ${a.level} 級：牌堆已空`);
    case 'armada_top_island': return ed(`took the top island: ${island}`, `拿取牌堆頂的島嶼：${island}`);
    case 'armada_incursion_token': return ed(`gives an incursion token to ${who(a.target)}`, `將侵襲標記交給${who(a.target)}`);
    case 'armada_tax': return ed(`levies a tax of ${a.tax}`, `徵稅 ${a.tax}`) + (a.applies ? '' : ed(' (a higher tax applies this turn)', '（本回合以較高的稅為準）'));
    case 'armada_piracy': return ed(`piracy ×${a.piracy}: every other player loses 1 coin per trade level`, `海盜 ×${a.piracy}：其他玩家每貿易等級失去 1 錢幣`);
    case 'armada_lost': return ed(`loses coins: ${a.tax || 0} to the tax, ${a.piracy || 0} to pirates; pays ${e.bank || 0}`,
      `失去錢幣：稅 ${a.tax || 0}，海盜 ${a.piracy || 0}；實付 ${e.bank || 0}`);
    case 'armada_immune': return ed(`Misty Isle: loses nothing (would have owed ${a.owed})`, `迷霧島：不失去錢幣（原應支付 ${a.owed}）`);
    case 'armada_stayed_out': return ed('stays out of the naval conflict (Forgotten Port)', '不參與海軍衝突（遺忘港）');
    case 'armada_naval': return ed(`naval conflict: ⚓ ${a.strength}, token ${a.token > 0 ? '+' : ''}${a.token}`, `海軍衝突：⚓ ${a.strength}，標記 ${a.token > 0 ? '+' : ''}${a.token}`);
    case 'armada_incursion': return ed(`incursion against ${who(a.target)}: ${a.token > 0 ? '+' : ''}${a.token} / ${a.target_token > 0 ? '+' : ''}${a.target_token}`,
      `侵襲${who(a.target)}：${a.token > 0 ? '+' : ''}${a.token} / ${a.target_token > 0 ? '+' : ''}${a.target_token}`);
    default: return e.played.slice('armada_'.length).replace(/_/g, ' ');
  }
}
