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
  free_last_of_age: ['free (last card of the Age)', '免費（本時代最後一張）'], freeBy: ['free', '免費'],
  leftN: ['left neighbour', '左鄰'], rightN: ['right neighbour', '右鄰'],
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
  chainFrom: ['free with', '可免費建造，若已有'], chainTo: ['makes free', '之後可免費建造'],
  live: ['live', '已連線'], reconnecting: ['reconnecting…', '重新連線中…'],
  broken: ['This table could not be restored.', '這張牌桌無法恢復。'], cards: ['cards', '張牌'],
  pass: ['Build nothing', '不建造'],
  chooseSide: ['Choose this side', '選這一面'], left: ['left', '左'], right: ['right', '右'],
  builtX: ['built', '建造了'], stageX: ['built wonder stage', '建造奇蹟階段'], discardedX: ['discarded a card', '棄了一張牌'],
  fromDiscard: ['from the discard pile', '（從棄牌堆）'], passedX: ['built nothing from the discard pile', '未從棄牌堆建造'],
  choseSideX: ['chose side', '選了'], buildDiscarded: ['Build free', '免費建造'],
  status_waiting: ['waiting for players', '等待玩家'], status_playing: ['playing', '進行中'],
  status_over: ['over', '已結束'], status_broken: ['broken', '損壞'],
  produces: ['Produces', '生產'], sells: ['Neighbours may buy', '鄰居可買'], nothingMade: ['nothing', '無'],
  scienceNow: ['points now', '分（目前）'], tokens: ['tokens', '衝突標記'],
  buyFrom: ['You can buy', '你可以購買'], each: ['each', '每個'], stages: ['Stages', '階段'],
  built: ['built', '已建'], key: ['Key', '圖示說明'],
  yourChoice: ['Your choice', '你的選擇'], takeBack: ['Take back', '收回'], changeable: ['you can change it until everyone has chosen', '所有人選好之前都可以更改'],
  buildStage: ['Wonder stage', '奇蹟階段'],
  wonderDone: ['Your wonder is complete.', '你的奇蹟已全部建成。'],
  youHave: ['you have', '你有'],
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
  chart: ['Points by category', '各類得分'], chooseYourSide: ['Choose the side of your wonder board', '選擇你的奇蹟圖板面'],
  scorePad: ['Score pad', '計分板'], scorePadIntro: ['Score a game played with the box: enter each city clockwise, then Score.', '為實體遊戲計分：依順時針輸入每座城市，然後按「計分」。'],
  addPlayer: ['Add a player', '新增玩家'], remove: ['Remove', '移除'], name: ['Name', '名字'], side: ['Side', '面'],
  searchCard: ['type a card name…', '輸入卡牌名稱…'], add: ['Add', '加入'], tokensHelp: ['military tokens', '軍事標記'],
  scoreIt: ['Score', '計分'], download: ['Download table JSON', '下載牌桌 JSON'], load: ['Load table JSON', '載入牌桌 JSON'],
  freeCityRow: ['2 players and the Free City (1st edition)', '2 人與自由城市（第一版）'],
  phase_choose: ['choose a card', '選一張牌'], phase_choose_side: ['choose the wonder sides', '選擇奇蹟面'],
  phase_play_last_card: ['last card of the Age', '打出時代的最後一張牌'], phase_build_from_discard: ['build from the discard pile', '從棄牌堆建造'],
  phase_over: ['game over', '遊戲結束'], lobbyLink: ['Lobby', '大廳'],
  phase_edifice_discard: ['great project failed: discard a card', '宏偉項目失敗：棄掉一張牌'],
  passesLeft: ['hands pass left', '手牌向左傳'], passesRight: ['hands pass right', '手牌向右傳'],
  timerHelp: ['time left for this move, then a bot plays it', '本步剩餘時間，逾時由電腦代打'],
  buyShort: ['buy', '購買'],
  timerOthersHelp: ['time left for the others to choose, then a bot plays for them', '其他玩家剩餘時間，逾時由電腦代打'],
  provisionalKey: ['provisional value: no printed source confirms it; the game uses a working value', '暫定數值：沒有印刷來源確認，遊戲使用暫定值'],
  close: ['Close', '關閉'], noTeamConflict: ['no conflict with teammate', '隊友之間無衝突'], has: ['has', '有'],
  discardIt: ['Discard', '棄牌'], cannotBuild: ['cannot build', '不能建造'], freeCityHand: ['The Free City\'s hand', '自由城市的手牌'],
  discardBuildTitle: ['Build a card of the discard pile, free', '從棄牌堆免費建造一張牌'],
  discardBuildNote: ['Your wonder lets you build one card of the discard pile for free, or nothing.', '你的奇蹟讓你從棄牌堆免費建造一張牌，或不建造。'],
  alreadyBuilt: ['already built: a city has no two buildings of the same name', '已建造：城市不能有兩座同名建築'],
  nextHand: ['Your next hand', '你的下一手牌'], scoreNowHelp: ['points if the game ended now', '若遊戲現在結束的分數'], vp: ['VP', '分'],
  seeCity: ['see this city in full', '查看整座城市'], compass: ['compass', '圓規'], gear: ['gear', '齒輪'], tablet: ['tablet', '石板'],
  swipeHint: ['swipe for your neighbours', '左右滑動查看鄰居'], sideNotChosen: ['side not chosen yet', '尚未選面'], stage: ['Stage', '階段'],
  categories: ['Categories', '類別'], results: ['Results', '結果'], chosenHelp: ['players who have chosen this step', '本步已選擇的玩家'],
  cardUnknown: ['No card of that name', '沒有這個名稱的卡牌'], didYouMean: ['did you mean', '你是指'],
  play: ['Play', '打出'],
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
// One colour per category, any two at least 86 apart in RGB (the blues of civilian, naval and
// fleet differ in lightness: mid, night and sky).
const CAT_COLOURS = { military: '#c0392b', treasury: '#f3d36b', wonder: '#6b4226', civilian: '#2f6db3',
  science: '#3c8a3f', commercial: '#d4860b', guilds: '#7b3fa0', edifice: '#e07bb0',
  naval: '#14284b', fleet: '#8ec5ef', islands: '#3fd0a0' };
// The light ones, written on in dark ink.
const LIGHT_CATS = ['treasury', 'fleet', 'islands'];

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

function coinIcon(n) { return h('span', { class: 'coin', title: typeof n === 'number' ? coinsText(n) : t('coins') }, n); }

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
  r = cleanMessage(r);
  if (!zh()) return r;
  let m;
  const tr = [
    [/^stage (\d+): (.*)$/, x => `第 ${x[1]} 階段：` + reasonText(x[2])],
    [/^costs (\d+) coins?, you have (\d+)$/, x => `需要 ${x[1]} 錢幣，你只有 ${x[2]}`],
    [/^needs (?:(\d+) )?([WSCOGLP]): you make none and no neighbour sells it$/, x => `需要 ${x[1] ? x[1] + ' 個 ' : ''}${x[2]}：你不生產，鄰居也不賣`],
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
    catalogs[edition] = { cards, wonders, makesFree, list: data.cards, wonderList: data.wonders, edifice: data.edifice || null,
      armada: data.armada || null };
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
function effectText(d) { return fixPlurals(zh() && d.effect_zh ? d.effect_zh : d.effect); }

function resourceKey() {
  return h('div', { class: 'res-key' }, h('b', {}, t('key') + ': '),
    Object.keys(RES).map(l => h('span', { class: 'key-item' }, resIcon(l), ' ', resName(l))),
    h('span', { class: 'key-item' }, coinIcon(1), ' ', t('coins')),
    h('span', { class: 'key-item' }, h('span', { class: 'shield' }, '⚔'), ' ', t('shields')),
    h('span', { class: 'key-item' }, '◎ ⚙ ▤', ' ', t('science')));
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
  const names = tbl.seats.map(x => (x.taken || x.bot ? seatDisplayName(x) : t('free')));
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
  const botLabel = b => { const [level, what] = botLevel(b); return `${t('bot')}: ${level}` + (what ? ` — ${what}` : ''); };
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
  // Impossible setups are refused here, before Create, for the reasons the server would give.
  const problem = h('p', { class: 'setup-problem error', id: 'setup-problem', role: 'status', hidden: true });
  const checkSetup = () => {
    const list = setupProblems({ players: Number(players.value), edition: edition.value, armada: armadaBox.checked,
      edifice: edificeBox.checked, teams: teamsBox.checked });
    problem.hidden = !list.length;
    problem.textContent = list.join(' ');
    create.disabled = list.length > 0;
  };
  for (const el of [players, edition, edificeBox, armadaBox, teamsBox]) el.addEventListener('change', checkSetup);
  checkSetup();
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
      banner(cleanMessage(e.message));
      create.disabled = false;
    }
  } },
  lobbyArt(),
  h('h2', {}, t('newTable')),
  h('div', { class: 'form-grid' },
    h('label', {}, t('players'), players), h('label', {}, t('edition'), edition),
    h('label', {}, t('wonders'), wonders), h('label', {}, t('yourName'), name),
    edificeLobbyOption(edificeBox), armadaLobbyOption(armadaBox), teamsLobbyOption(teamsBox)),
  h('h3', {}, t('seats')), seats, problem, create,
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
        (tbl.expansions || []).map(x => [h('span', { class: 'tag expansion' }, expansionIcon(x), expansionLabel(x)), ' ']),
        h('span', { class: 'tag' }, `${taken}/${tbl.players} ${t('seated')}`), ' ',
        h('span', { class: 'tag status-' + tbl.status }, t('status_' + tbl.status)),
        tbl.status === 'playing' ? h('span', { class: 'muted' }, ` ${t('age')} ${ROMAN[tbl.age] || tbl.age} · ${t('turn')} ${tbl.turn}`) : null,
        mine ? h('span', { class: 'tag you' }, t('you')) : null,
        h('span', { class: 'row-actions' },
          canJoin ? link('/t/' + tbl.id, t('join'), { class: 'button primary join' }) : null,
          link('/t/' + tbl.id, tbl.status === 'over' ? t('results') : mine ? t('resume') : t('watch'), { class: 'button watch' }))));
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
    lists.replaceChildren(h('p', { class: 'error' }, cleanMessage(e.message)));
  }
}

// The lobby's and the score pad's banner: three of the boards' illustrations.
function lobbyArt() {
  return h('div', { class: 'lobby-art', 'aria-hidden': 'true' },
    ['Giza', 'Babylon', 'Alexandria', 'Rhodes'].map((w, k) => h('div', { class: 'art-cell' + (k === 3 ? ' wide-only' : '') }, boardArt(w, k === 2))));
}

// ---------------------------------------------------------------- table page
// The table: on a laptop (1366×768 and up) one screen that holds everything a move depends on:
// the bar (Age, turn, passing direction, timer, your move), the other cities in compact form, the
// left neighbour drawn on the left of your city and the right one on its right, your hand below,
// and the live log beside it all. On a phone (≤ 720 px), your hand and your city come first, the
// neighbours one swipe away. A card is picked, then what to do with it is chosen in its action
// sheet. When a step resolves, the cards built appear on their cities and the coins move.

// The phone layout's width (style.css uses the same).
const NARROW = '(max-width: 720px)';
// The log's blocks (turns and Age ends) shown while playing.
const LOG_BLOCKS = 14;

class TablePage {
  constructor(id) {
    this.id = id;
    this.state = null;
    this.cat = null;
    this.pending = false;
    this.closed = false;
    this.retry = 500;
    this.nextId = 1;
    this.picked = null; // { index, name } of the hand card whose action sheet is open
    this.peek = null; // a card (name) or a city (index) looked at in full
    this.wasMyMove = false;
    this.changes = null; // what the last resolved step changed (item 4)
    this.animate = false; // play the changes' animations at the next render only
    this.ageEndClosed = 0; // the Age whose end panel the player closed
    this.deadline = null; // when the step's clock runs out, by this page's clock
    document.body.dataset.page = 'table';
    document.getElementById('app').replaceChildren(h('p', { class: 'muted' }, '…'));
    this.keys = ev => {
      if (ev.key === 'Escape' && (this.picked || this.peek !== null)) { this.picked = null; this.peek = null; this.render(); }
    };
    document.addEventListener('keydown', this.keys);
    this.timer = setInterval(() => this.tick(), 1000);
    this.onResize = () => this.render();
    if (window.matchMedia) window.matchMedia(NARROW).addEventListener('change', this.onResize);
    this.connect();
  }

  close() {
    this.closed = true;
    clearInterval(this.timer);
    document.removeEventListener('keydown', this.keys);
    if (window.matchMedia) window.matchMedia(NARROW).removeEventListener('change', this.onResize);
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
      if (!old || old.turn_id !== msg.turn_id || old.step !== msg.step) this.pending = false;
      // The step's clock is the server's (what it had left when it wrote this state): a reload
      // shows the same time left, not the whole timer again.
      this.deadline = msg.remaining_ms !== undefined ? Date.now() + msg.remaining_ms : null;
      // The log arrives in pieces: keep what came before `history_from`.
      const before = old && msg.history_from ? (old.history || []).slice(0, msg.history_from) : [];
      msg.history = before.concat(msg.history || []);
      const changes = stepChanges(old, msg);
      if (changes) { this.changes = changes; this.animate = true; }
      if (!old || old.step !== msg.step) {
        // A new step: the card picked before may be gone.
        const hand = (msg.view && msg.view.hand) || [];
        if (this.picked && hand[this.picked.index] !== this.picked.name) this.picked = null;
        if (msg.legal && !msg.legal.length) this.picked = null;
      }
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
      banner(cleanMessage(msg.message));
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

  // The turn timer of the bar: the server's time left on the step, counted down from the
  // moment its state arrived.
  tick() {
    const el = document.getElementById('turn-timer');
    if (el && this.deadline) el.textContent = timerText(this.deadline);
  }

  send(action) {
    if (this.pending || !this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    this.pending = true;
    this.picked = null;
    this.ws.send(JSON.stringify({ type: 'act', id: this.nextId++, turn_id: this.state.turn_id, action }));
    this.render();
  }

  // Asks the server for a hint for this seat (a table against bots only).
  async askHint() {
    const mine = store.token(this.id);
    if (!mine || this.hinting) return;
    this.hinting = true;
    this.render();
    const step = this.state.step, turnId = this.state.turn_id;
    try {
      const hint = await api('GET', `/api/tables/${this.id}/hint`, undefined, mine.token);
      this.hint = { step, turnId, moves: hint.moves };
    } catch (e) {
      banner(cleanMessage(e.message));
    }
    this.hinting = false;
    this.render();
  }

  // Asks the server for the review of this finished game for this seat (a player of it only):
  // the search bot's view of each decision; computed once, a few seconds.
  async askReview() {
    const mine = store.token(this.id);
    if (!mine || this.reviewing) return;
    this.reviewing = true;
    this.render();
    try {
      this.review = await api('GET', `/api/tables/${this.id}/review`, undefined, mine.token);
    } catch (e) {
      banner(cleanMessage(e.message));
    }
    this.reviewing = false;
    this.render();
    const panel = document.getElementById('review');
    if (panel && panel.scrollIntoView) panel.scrollIntoView({ block: 'start' });
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
    return seatDisplayName(seat);
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

  // A city's name in a table's row: in a team game the player's name and a tag of their team.
  whoLabel(i) {
    const v = this.state.view;
    if (!v || !v.teams) return h('span', { class: 'who-name' }, this.cityLabel(i));
    return [h('span', { class: 'who-name' }, this.seatName(i)), h('span', { class: 'tag team-tag' }, `${t('team')} ${Math.floor(i / 2) + 1}`)];
  }

  // The name of the city `o` seen from `city`: "Bob (left)" for a neighbour.
  whoSide(city, o) {
    const n = this.state.view.cities.length;
    const side = o === (city + 1) % n ? t('left') : o === (city + n - 1) % n ? t('right') : null;
    return side ? `${this.cityLabel(o)} (${side})` : this.cityLabel(o);
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
    this.animNow = this.animate;
    this.animate = false;
    let parts;
    let layout = 'plain';
    if (st.table.status === 'broken') {
      parts = [this.header(), h('p', { class: 'error panel' }, t('broken'), ' ', cleanMessage(st.table.error || ''))];
    } else if (st.table.status === 'waiting') {
      parts = [this.header(), this.seatsPanel()];
    } else if (!st.view) {
      parts = [this.header()];
    } else if (st.table.status === 'over') {
      layout = 'over';
      parts = this.overLayout();
    } else {
      layout = st.you === null ? 'watch' : 'play';
      parts = [this.playLayout()];
    }
    // Coins still flying between the cities of the table are gone with it (the last turn's
    // payments when the score sheet takes its place).
    if (layout !== 'play' && layout !== 'watch') document.querySelectorAll('.flying-coin').forEach(e => e.remove());
    document.body.dataset.layout = layout;
    const scroll = window.scrollY;
    const keep = [...app.querySelectorAll('[data-keep-scroll]')].map(e => [e.dataset.keepScroll, e.scrollTop, e.scrollLeft]);
    app.replaceChildren(...parts);
    for (const [key, top, left] of keep) {
      const e = app.querySelector(`[data-keep-scroll="${key}"]`);
      if (e) { e.scrollTop = top; e.scrollLeft = left; }
    }
    window.scrollTo(0, scroll);
    // On a phone, your city first, the left neighbour a swipe to the right, the right one a
    // swipe to the left.
    const row = app.querySelector('.neighbour-row');
    const narrow = !!(window.matchMedia && window.matchMedia(NARROW).matches);
    const resized = narrow !== this.wasNarrow;
    this.wasNarrow = narrow;
    if (row && (resized || !keep.some(([k]) => k === 'row'))) {
      const mine = row.querySelector('.city.mine');
      if (mine && getComputedStyle(row).display === 'flex') row.scrollLeft = mine.offsetLeft - row.offsetLeft;
    }
    this.placeSheet();
    if (this.animNow) this.playChanges();
  }

  // ------------------------------------------------------------ layouts

  playLayout() {
    const st = this.state;
    const v = st.view;
    const watching = st.you === null;
    const bar = h('div', { class: 'table-bar' }, this.header(), this.statusPanel());
    const side = h('aside', { class: 'side-col', 'data-keep-scroll': 'side' },
      st.view.teammate_hand ? teammatePanel(this) : null,
      v.projects ? edificePanel(this) : null,
      v.armada ? armadaPanel(this) : null,
      this.logPanel(),
      this.keysPanel());
    return h('div', { class: 'table-layout' + (watching ? ' watching' : '') },
      bar,
      this.ageEndPanel(),
      this.peekPanel(),
      watching ? null : this.playPanel(),
      this.citiesPanel(false),
      side);
  }

  overLayout() {
    const st = this.state;
    const v = st.view;
    return [h('div', { class: 'over-layout' },
      h('div', { class: 'table-bar' }, this.header()),
      this.gameOverPanel(),
      this.review ? reviewPanel(this) : null,
      this.ageEndPanel(),
      v.projects ? edificePanel(this) : null,
      v.armada ? armadaPanel(this) : null,
      this.citiesPanel(true),
      this.logPanel(),
      this.keysPanel())];
  }

  header() {
    const st = this.state;
    const url = location.origin + '/t/' + this.id;
    const input = h('input', { class: 'share-link', readonly: true, value: url, onfocus: e => e.target.select() });
    return h('section', { class: 'panel table-head' },
      h('h1', { title: tableTitle(st.table) }, tableTitle(st.table)), ' ',
      h('span', { class: 'tags' },
        h('span', { class: 'tag' }, editionLabel(st.table.edition)), ' ',
        h('span', { class: 'tag' }, wondersLabel(st.table.wonders)), ' ',
        (st.table.expansions || []).map(x => [h('span', { class: 'tag expansion' }, expansionIcon(x), expansionLabel(x)), ' ']),
        h('span', { class: 'tag status-' + st.table.status }, t('status_' + st.table.status))),
      st.table.status === 'waiting' ? h('div', { class: 'share' }, t('share'), ' ', input,
        h('button', { type: 'button', onclick: () => {
          input.select();
          if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
        } }, t('copy'))) : null,
      st.you === null && st.table.status !== 'waiting' ? h('span', { class: 'muted watching-note' }, t('spectator')) : null);
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
        x.taken || x.bot ? seatDisplayName(x) : t('free'),
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
            } catch (e) { banner(cleanMessage(e.message)); ev.target.disabled = false; }
          } }, t('take')) : null))));
  }

  // The bar: Age, turn, which way the hands pass, the timer, whose move it is.
  statusPanel() {
    const st = this.state;
    const v = st.view;
    const phase = `${t('age')} ${ROMAN[v.age] || v.age} · ${t('turn')} ${v.turn}` + (v.phase !== 'choose' ? ` · ${phaseLabel(v.phase)}` : '');
    let prompt = null;
    if (st.you !== null && st.table.status === 'playing') {
      prompt = st.legal.length ? h('strong', { class: 'prompt go' }, t('yourMove'))
        : h('span', { class: 'prompt wait' }, t('waitingOthers'));
    }
    const dir = v.age === 2 ? 'right' : 'left';
    const freeLine = v.free_city !== undefined && v.free_city_holder !== undefined
      ? h('span', { class: 'note free-city-line' }, t('freeCityTurn'), ' ', h('b', {}, this.seatName(v.free_city_holder)),
        st.you === v.free_city_holder ? h('span', { class: 'tag you' }, t('you')) : null) : null;
    const waiting = (st.waiting || []).length;
    return h('section', { class: 'panel status' },
      h('span', { class: 'phase' }, phase),
      h('span', { class: 'pass-dir pass-' + dir, title: t(dir === 'left' ? 'passLeft' : 'passRight') },
        dir === 'left' ? '⟲ ' + t('passesLeft') : t('passesRight') + ' ⟳'),
      this.deadline ? h('span', { class: 'turn-timer', title: t(st.timer_left_secs !== undefined ? 'timerHelp' : 'timerOthersHelp') }, clockIcon(),
        h('span', { id: 'turn-timer' }, timerText(this.deadline))) : null,
      prompt,
      h('span', { class: 'muted chosen-count', title: t('chosenHelp') }, `✓ ${st.table.seats.length - waiting}/${st.table.seats.length}`),
      h('span', { class: 'muted discard-count', title: t('discardPile') }, plural(v.discard_size, 'discardedCount')),
      freeLine);
  }

  // The keys: resources, the symbols of the city boards, and the provisional mark (once).
  keysPanel() {
    const v = this.state.view;
    const provisional = !!(v.armada || v.projects);
    return h('details', { class: 'panel keys' }, h('summary', {}, t('key')),
      resourceKey(),
      h('div', { class: 'res-key' }, catKey()),
      provisional ? h('p', { class: 'muted', id: 'provisional-key' }, provisionalMark(), ' ', t('provisionalKey')) : null,
      this.state.you !== null && this.state.table.status === 'playing' && window.Notification
        ? h('label', { class: 'notify' }, h('input', { type: 'checkbox', id: 'notify', checked: store.notify && Notification.permission === 'granted',
          onchange: async ev => {
            store.notify = ev.target.checked;
            if (ev.target.checked && Notification.permission !== 'granted') {
              const p = await Notification.requestPermission();
              if (p !== 'granted') { store.notify = false; ev.target.checked = false; }
            }
          } }), ' ', t('notify')) : null);
  }

  // ------------------------------------------------------------ the Age end

  // The panel of the last Age's military conflicts: shown at the start of the next Age (over the
  // cities, until closed or the Age's second turn) and at the end of the game.
  ageEndPanel() {
    const st = this.state;
    const v = st.view;
    const ends = st.age_ends || [];
    if (!ends.length) return null;
    const last = ends[ends.length - 1];
    const over = v.phase === 'over';
    const fresh = over || (v.age === last.age + 1 && v.turn === 1);
    if (!fresh || (!over && this.ageEndClosed === last.age)) return null;
    return h('section', { class: 'panel age-end' + (over ? '' : ' floating'), id: 'age-end' },
      h('div', { class: 'panel-head' }, h('h2', {}, `${t('ageEnd')} ${ROMAN[last.age]} — ${t('conflicts')}`),
        over ? null : h('button', { type: 'button', class: 'close', id: 'age-end-close', 'aria-label': t('close'),
          onclick: () => { this.ageEndClosed = last.age; this.render(); } }, '✕')),
      this.conflictTable(last),
      armadaAgeEnd(this, last),
      edificeAgeEnd(this, last.age),
      over ? null : h('p', { class: 'note' }, last.age + 1 === 2 ? t('passRight') : t('passLeft')));
  }

  conflictTable(end) {
    const n = end.cities.length;
    return h('div', { class: 'table-scroll' }, h('table', { class: 'conflicts' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, '⚔'), h('th', {}, t('vsLeft')), h('th', {}, t('vsRight')))),
      h('tbody', {}, end.cities.map((c, i) => h('tr', { class: this.state.you === i ? 'me' : '' },
        h('th', { title: this.cityLabel(i) }, this.whoLabel(i)), h('td', {}, c.shields),
        h('td', {}, this.conflictCell(c.left, (i + 1) % n, end.cities[(i + 1) % n].shields, i)),
        h('td', {}, this.conflictCell(c.right, (i + n - 1) % n, end.cities[(i + n - 1) % n].shields, i)))))));
  }

  // One conflict: the token and its words; teammates have no conflict (the same words in the
  // panel and in the log). The other city by its player's name alone: its row (and the word
  // "teammate") already says the team.
  conflictCell(token, other, otherShields, me) {
    const v = this.state.view;
    const who = v && v.free_city === other ? this.cityLabel(other) : this.seatName(other);
    if (v && v.teams && me !== undefined && (me ^ 1) === other) {
      return [h('span', { class: 'muted' }, `${t('noTeamConflict')} ${who}`)];
    }
    const word = token > 0 ? t('beat') : token < 0 ? t('lostTo') : t('tie');
    return [token ? tokenChip(token) : h('span', { class: 'token tok-0' }, '0'), ' ',
      h('span', { class: 'muted' }, `${word} ${who} (${otherShields}⚔)`)];
  }

  // ------------------------------------------------------------ paying

  paymentParts(a, city) {
    const n = this.state.view.cities.length;
    if (a.free) return [t('free_' + a.free)];
    const parts = [];
    if (a.left) parts.push(`${a.left} → ${this.whoSide(city, (city + 1) % n)}`);
    if (a.right) parts.push(`${a.right} → ${this.whoSide(city, (city + n - 1) % n)}`);
    parts.push(...secondParts(this, city, a));
    if (a.bank) parts.push(`${a.bank} → ${t('bank')}`);
    const out = parts.length ? parts : [t('nothing')];
    const extra = edificeActionText(a);
    if (extra) out.push(extra.slice(3));
    return out;
  }

  // What the city acting has, in words: "you have 3 coins", "the Free City has 2 coins".
  coinsAtHand(city) {
    const coins = this.state.view.cities[city].coins;
    return city === this.state.you ? `${t('youHave')} ${coinsText(coins)}` : `${this.cityLabel(city)} ${t('has')} ${coinsText(coins)}`;
  }

  paymentLabel(a, city) {
    const total = payTotal(a);
    const naval = this.state.view.armada ? navalPart(this, city, a) : [];
    const navalSpan = naval.length ? h('span', { class: 'naval-part' }, naval.map(x => [' · ', x])) : null;
    if (a.free || total === 0) return h('span', { class: 'pay' }, this.paymentParts(a, city).join(', '), navalSpan);
    return h('span', { class: 'pay' }, h('b', {}, coinsText(total)), ' ',
      h('span', { class: 'pay-detail' }, '(' + this.paymentParts(a, city).join(', ') + ')'), navalSpan,
      ' ', h('span', { class: 'muted' }, `· ${this.coinsAtHand(city)}`));
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

  // ------------------------------------------------------------ cards

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
    const chainFrom = from.map(n => cardName(cat, n) + (owns(n) ? ' ✓' : '')).join(', ');
    const chainTo = to.map(n => cardName(cat, n)).join(', ');
    return h('div', { class: 'card c-' + colour + (o.reason ? ' unbuildable' : '') + (o.picked ? ' picked' : '') + (o.open ? ' open' : ''),
      dataset: { card: name }, onclick: o.onpick || null },
    h('div', { class: 'card-head' },
      cardGlyph(d), h('span', { class: 'card-name' }, cardName(cat, name, age)),
      o.costInHead && d ? h('span', { class: 'head-cost' }, costIcons(d.coins, d.cost)) : null),
    d && !o.costInHead ? h('div', { class: 'card-cost' }, costIcons(d.coins, d.cost)) : null,
    d ? h('div', { class: 'card-effect', title: effectText(d) }, withIcons(effectText(d)), d.provisional ? provisionalMark() : null) : null,
    from.length ? h('div', { class: 'card-chain', title: `${t('chainFrom')} ${chainFrom}` }, '← ' + t('chainFrom') + ' ',
      from.map((n, k) => [k ? ', ' : '', h('span', { class: owns(n) ? 'chain-owned' : '' }, cardName(cat, n) + (owns(n) ? ' ✓' : ''))])) : null,
    to.length ? h('div', { class: 'card-chain', title: `${t('chainTo')}: ${chainTo}` }, '→ ' + t('chainTo') + ': ' + chainTo) : null,
    o.reason && o.reason !== '—' ? h('div', { class: 'reason', title: reasonText(o.reason) }, '✗ ', withIcons(reasonText(o.reason))) : null,
    o.controls || null);
  }

  // ------------------------------------------------------------ the hand

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
    // A hint, at a table where every other seat is a bot: the search bot's preferred moves.
    const solo = st.table.seats.every((x, i) => i === me || x.bot);
    if (solo && st.legal.length > 1 && !pending.length) {
      parts.push(h('button', { type: 'button', id: 'hint', class: 'hint-button', disabled: this.hinting,
        title: ed("The search bot's three preferred moves, with the share of its sampled games each wins", '搜尋電腦的三個首選，及各自在抽樣對局中的勝率'),
        onclick: () => this.askHint() }, this.hinting ? ed('Thinking…', '思考中…') : ed('Hint', '提示')));
    }
    const hint = this.hint && this.hint.step === st.step && this.hint.turnId === st.turn_id && !pending.length
      ? h('ol', { class: 'hint-list', id: 'hint-list' }, this.hint.moves.map(m => h('li', {},
        this.actionText(m.action, city), ' — ', h('b', {}, ed(`wins ${Math.round(m.win_chance * 100)}%`, `勝率 ${Math.round(m.win_chance * 100)}%`)),
        h('span', { class: 'muted' }, ed(` of ${m.samples} games`, `（${m.samples} 局）`)))))
      : null;
    const section = (title, ...rest) => h('section', { class: 'panel hand', 'data-keep-scroll': 'hand' },
      h('div', { class: 'hand-head' }, h('h2', {}, title), parts), hint, rest);
    const others = st.legal.some(a => a.type === 'choose_island' || a.type === 'stay_out_of_naval' || a.type === 'discard_built');
    if (v.phase === 'choose_side') return section(t('chooseYourSide'), this.sidePanel());
    if (v.phase === 'edifice_discard') return section(ed('Great project failed', '宏偉項目失敗'), edificeDiscardPanel(this));
    if (v.phase === 'explore' && others) return section(ed('Exploration', '探索'), armadaExplorePanel(this));
    if (v.phase === 'island_moves' && others) return section(ed('Island: free moves', '島嶼：免費移動'), armadaIslandMovesPanel(this));
    if (v.phase === 'naval_opt_out' && others) return section(ed('Forgotten Port', '遺忘港'), armadaOptOutPanel(this));
    const forFree = v.free_city !== undefined && city === v.free_city && st.legal.length > 0;
    // The hand: during the Free City step, the card chosen for the own city is set aside.
    let hand = (v.hand || []).slice();
    const handIndex = hand.map((_, i) => i);
    const pickedOwn = pending.length ? pending[0].card : null;
    if (forFree && pickedOwn) {
      const i = hand.indexOf(pickedOwn);
      if (i >= 0) { hand.splice(i, 1); handIndex.splice(i, 1); }
    }
    const canAct = st.legal.length > 0;
    const discardStep = v.phase === 'build_from_discard' && canAct && v.discard;
    if (discardStep) {
      return section(t('discardBuildTitle'), this.discardBuildPanel(hand, city));
    }
    if (forFree) parts.push(h('p', { class: 'note for-free-city' }, t('forFreeCity')));
    const reasons = st.reasons || [];
    const by = actionsByCard(st.legal);
    const loose = st.legal.filter(a => a.card === undefined || !['build', 'wonder', 'discard'].includes(a.type));
    const handCards = hand.map((name, k) => {
      const i = handIndex[k];
      const acts = by.get(name) || [];
      const builds = acts.filter(a => a.type === 'build');
      const reason = canAct && !builds.length ? (reasons[i] || (acts.length ? '—' : null)) : null;
      const open = this.picked && this.picked.index === i && this.picked.name === name;
      const pick = () => { this.picked = open ? null : { index: i, name }; this.peek = null; this.render(); };
      const cheapest = builds.length ? sortPayments(builds)[0] : null;
      const badge = !canAct ? null : cheapest ? (cheapest.free || !payTotal(cheapest) ? t('freeBy') : coinsText(payTotal(cheapest)))
        : t('cannotBuild');
      const controls = canAct && acts.length ? h('div', { class: 'card-actions' },
        h('button', { class: 'pick' + (open ? ' open' : ''), type: 'button', disabled: this.pending, 'aria-expanded': open ? 'true' : 'false',
          onclick: ev => { ev.stopPropagation(); pick(); } },
        h('span', { class: 'pick-what' }, cheapest ? [t('build'), ' ', cheapest.free || !payTotal(cheapest) ? h('span', { class: 'free-tag' }, t('freeBy')) : coinIcon(payTotal(cheapest))] : badge),
        ' ', h('span', { class: 'pick-more' }, '▾'))) : null;
      return this.cardBox(name, v.age, { city, reason, controls, open, costInHead: true,
        onpick: canAct && acts.length ? pick : null,
        picked: !canAct && pending.some(a => a.card === name) });
    });
    const title = forFree ? `${t('freeCityHand')} (${hand.length})` : `${t('hand')} (${hand.length})`;
    const sheet = this.picked && canAct ? this.actionSheet(this.picked.index, this.picked.name, by.get(this.picked.name) || [], city) : null;
    return section(title,
      loose.length ? h('div', { class: 'generic' }, h('h3', {}, t('otherActions')), loose.map(a => h('button', {
        class: 'act act-' + a.type, type: 'button', disabled: this.pending, onclick: () => this.send(a),
      }, this.genericLabel(a)))) : null,
      h('div', { class: 'cards hand-cards' }, handCards),
      sheet);
  }

  // The action sheet of the card picked: every way to play it, each with its ways to pay
  // (cheapest first, each saying whom it pays), and why what cannot be done cannot.
  actionSheet(index, name, acts, city) {
    const st = this.state;
    const v = st.view;
    const c = v.cities[city];
    const reason = (st.reasons || [])[index];
    const builds = acts.filter(a => a.type === 'build');
    const wonders = acts.filter(a => a.type === 'wonder');
    const discards = acts.filter(a => a.type === 'discard');
    const groups = [];
    const options = (key, list) => h('div', { class: 'options' }, sortPayments(list).map(a => h('button', {
      class: 'act act-' + a.type, type: 'button', disabled: this.pending, onclick: () => this.send(a),
    }, this.paymentLabel(a, city))));
    // Build, and Armada's naval construction with it (one group per ship).
    if (builds.length) {
      for (const [key, list] of navalGroups(builds)) {
        groups.push(h('div', { class: 'act-group', dataset: { kind: 'build' } },
          h('div', { class: 'group-label' }, navalLabel(this, city, t('build'), list[0])), options('b' + key, list)));
      }
    } else {
      groups.push(h('div', { class: 'act-group unavailable', dataset: { kind: 'build' } },
        h('div', { class: 'group-label' }, t('build')),
        h('div', { class: 'reason', title: reasonText(reason || t('cannotBuild')) }, '✗ ', withIcons(reasonText(reason || t('cannotBuild'))))));
    }
    // The next wonder stage, tucking this card.
    const w = this.cat.wonders.get(c.wonder);
    const side = w && w.sides.find(x => x.label === c.side);
    const stages = side ? side.stages : [];
    const next = stages[c.stages];
    const stageHead = next ? [`${t('buildStage')} ${c.stages + 1}/${stages.length}`, ' ', costIcons(0, next.cost), ' → ',
      h('span', { class: 'stage-effect' }, withIcons(effectText(next)))] : [t('wonderDone')];
    if (wonders.length) {
      const keyOf = a => [a.naval || '', a.free_move || '', a.take_part ? 'p' : '', a.second_effect ? 's' : '', a.pawn_age || ''].join('|');
      const byKey = new Map();
      for (const a of wonders) { const k = keyOf(a); if (!byKey.has(k)) byKey.set(k, []); byKey.get(k).push(a); }
      for (const [key, list] of [...byKey].sort(([x], [y]) => (x < y ? -1 : 1))) {
        const a = list[0];
        const extra = edificeActionText(a);
        groups.push(h('div', { class: 'act-group', dataset: { kind: 'wonder' } },
          h('div', { class: 'group-label' }, navalLabel(this, city, '', a) ? [stageHead, h('span', { class: 'naval-part' }, navalLabel(this, city, '', a))] : stageHead,
            extra ? h('span', { class: 'take-part' }, extra) : null),
          options('w' + key, list)));
      }
    } else {
      groups.push(h('div', { class: 'act-group unavailable', dataset: { kind: 'wonder' } },
        h('div', { class: 'group-label' }, stageHead),
        next && st.stage_reason ? h('div', { class: 'reason' }, '✗ ', withIcons(reasonText(st.stage_reason))) : null));
    }
    // Discard: 3 coins, or Armada's free move of the yellow ship.
    const coinDiscard = discards.find(a => !a.yellow);
    const yellowDiscard = discards.find(a => a.yellow);
    if (discards.length) {
      groups.push(h('div', { class: 'act-group', dataset: { kind: 'discard' } },
        h('div', { class: 'group-label' }, t('discardIt')),
        h('div', { class: 'options' },
          coinDiscard ? h('button', { class: 'act act-discard', type: 'button', disabled: this.pending, onclick: () => this.send(coinDiscard) }, t('discard')) : null,
          yellowDiscard ? h('button', { class: 'act act-discard act-discard-yellow', type: 'button', disabled: this.pending, onclick: () => this.send(yellowDiscard) },
            ed('Discard: yellow ship +1 step (no coins)', '棄牌：黃色船前進1格（不拿錢）')) : null)));
    }
    const d = cardDef(this.cat, name, v.age);
    return h('div', { class: 'action-sheet', id: 'action-sheet', role: 'dialog', 'aria-label': cardName(this.cat, name, v.age), dataset: { card: name } },
      h('div', { class: 'sheet-head c-' + (d ? d.colour : 'grey') },
        cardGlyph(d), h('b', { class: 'card-name' }, cardName(this.cat, name, v.age)),
        h('span', { class: 'sheet-coins' }, this.coinsAtHand(city)),
        h('button', { type: 'button', class: 'close', 'aria-label': t('close'), onclick: () => { this.picked = null; this.render(); } }, '✕')),
      groups);
  }

  // Places the open action sheet above its card (on a laptop; a phone shows it at the bottom).
  placeSheet() {
    const sheet = document.getElementById('action-sheet');
    if (!sheet || !this.picked) return;
    const hand = sheet.closest('.hand');
    const card = [...hand.querySelectorAll('.hand-cards .card.open')][0];
    if (!card) return;
    const hr = hand.getBoundingClientRect();
    const cr = card.getBoundingClientRect();
    const w = sheet.offsetWidth;
    const left = Math.max(4, Math.min(cr.left - hr.left + cr.width / 2 - w / 2, hr.width - w - 4));
    sheet.style.setProperty('--sheet-left', left + 'px');
  }

  // Halicarnassus (and Carthage B): build one card of the discard pile free, or nothing.
  discardBuildPanel(hand, city) {
    const st = this.state;
    const v = st.view;
    const legal = st.legal;
    const cards = v.discard.map(name => {
      const acts = legal.filter(a => a.type === 'build_discarded' && a.card === name);
      return this.cardBox(name, acts.length && acts[0].age ? acts[0].age : undefined, { city,
        reason: acts.length ? null : (cityHas(v.cities[city], name) ? t('alreadyBuilt') : null),
        controls: acts.length ? h('div', { class: 'card-actions' }, acts.map(a => h('button', {
          class: 'act act-build_discarded', type: 'button', disabled: this.pending, onclick: () => this.send(a),
        }, t('buildDiscarded'), a.free_move ? ed(` + free move ${fleetName(a.free_move)}`, ` + 免費移動${fleetName(a.free_move)}`) : ''))) : null });
    });
    const pass = legal.find(a => a.type === 'pass');
    return h('div', { class: 'discard-build', id: 'discard-build' },
      h('p', { class: 'note' }, t('discardBuildNote'), ' ',
        pass ? h('button', { class: 'act act-pass', type: 'button', disabled: this.pending, onclick: () => this.send(pass) }, t('pass')) : null),
      h('h3', {}, t('discardPile'), ' ', h('span', { class: 'muted' }, `(${v.discard.length})`)),
      h('div', { class: 'cards' }, cards),
      hand.length ? h('p', { class: 'muted next-hand' }, t('nextHand'), ': ', hand.map(n => cardName(this.cat, n, v.age)).join(', ')) : null);
  }

  // 2nd edition: both sides of the board drawn, each with its stages, to choose from.
  sidePanel() {
    const st = this.state;
    const v = st.view;
    const c = v.cities[st.you];
    const w = this.cat.wonders.get(c.wonder);
    const chosen = (st.pending || []).find(a => a.type === 'choose_side');
    return h('div', { class: 'side-choice', id: 'side-choice' },
      h('h3', {}, wonderName(this.cat, c.wonder), w ? [' (', resIcon(w.start), ')'] : null),
      h('div', { class: 'sides' }, (w ? w.sides : []).map(sd => {
        const act = st.legal.find(a => a.type === 'choose_side' && a.side === sd.label);
        return h('div', { class: 'side' + (chosen && chosen.side === sd.label ? ' picked' : ''), dataset: { side: sd.label } },
          wonderBoard(this, c.wonder, sd.label, 0, { preview: true }),
          h('ol', { class: 'stage-list' }, sd.stages.map(x => h('li', {}, costIcons(0, x.cost), ' → ', withIcons(effectText(x))))),
          act ? h('button', { class: 'act act-choose_side primary', type: 'button', disabled: this.pending, onclick: () => this.send(act) },
            t('chooseSide') + ': ' + sideLabel(sd.label)) : null);
      })));
  }

  // ------------------------------------------------------------ cities

  productionLine(p) {
    const items = [];
    for (const l of p.fixed) items.push(resIcon(l));
    for (const e of p.either) items.push(h('span', { class: 'either' }, [...e].map((l, k) => [k ? '/' : '', resIcon(l)])));
    return items.length ? items : [h('span', { class: 'muted' }, t('nothingMade'))];
  }

  // A city's numbers: coins (and what they just did), shields, military tokens, points so far,
  // and whether it has chosen this step.
  cityStats(i) {
    const st = this.state;
    const c = st.view.cities[i];
    const sum = (st.summaries || [])[i];
    const delta = this.changes && this.changes.coins ? this.changes.coins[i] : 0;
    const chose = st.table.status === 'playing' && (st.waiting || []).length
      ? ((st.waiting || []).includes(i) ? h('span', { class: 'chose waiting', title: t('choosing') }, '…')
        : h('span', { class: 'chose done', title: t('chosen') }, '✓')) : null;
    return h('span', { class: 'stats' },
      chose,
      h('span', { class: 'coin-stat', title: coinsText(c.coins) }, coinIcon(c.coins),
        delta ? h('span', { class: 'coin-delta ' + (delta > 0 ? 'up' : 'down') }, (delta > 0 ? '+' : '−') + Math.abs(delta)) : null),
      h('span', { class: 'shield', title: plural(c.shields, 'shieldCount') }, '⚔ ' + c.shields),
      h('span', { class: 'tokens', title: t('tokens') }, c.military.length ? c.military.map(tokenChip) : h('span', { class: 'muted' }, '·')),
      sum ? h('span', { class: 'score-now', title: t('scoreNowHelp') }, `≈ ${sum.score_now} ${t('vp')}`) : null);
  }

  // One city. `mode`: 'full' (your city, the neighbours, every city of a finished game) or
  // 'compact' (the other cities at a laptop's table).
  cityPanel(i, role, mode, expanded) {
    const st = this.state;
    const v = st.view;
    const c = v.cities[i];
    const sum = (st.summaries || [])[i];
    const cat = this.cat;
    const n = v.cities.length;
    const fresh = this.changes && this.changes.cards ? this.changes.cards[i] || [] : [];
    const freshStage = this.changes && this.changes.stages ? this.changes.stages[i] : 0;
    const roleText = role === 'left' ? '← ' + t('leftN') : role === 'right' ? t('rightN') + ' →' : null;
    const head = h('div', { class: 'city-head' },
      h('b', { class: 'city-name', title: this.cityLabel(i) }, this.cityLabel(i)), st.you === i ? h('span', { class: 'tag you' }, t('you')) : null,
      roleText ? h('span', { class: 'role muted' }, roleText) : null,
      this.cityStats(i));
    const choosing = v.phase === 'choose_side';
    if (mode === 'compact') {
      return h('div', { class: 'city compact ' + role, dataset: { city: i },
        title: t('seeCity'), onclick: () => { this.peek = { city: i }; this.picked = null; this.render(); } },
      head,
      h('div', { class: 'compact-line' },
        h('span', { class: 'wonder-name' }, wonderName(cat, c.wonder) + (choosing ? '' : ' · ' + sideLabel(c.side))),
        h('span', { class: 'stage-pips', title: `${t('stages')} ${c.stages}/${c.stages_total}` },
          Array.from({ length: c.stages_total }, (_, k) => h('span', { class: 'pip' + (k < c.stages ? ' built' : '') + (k === c.stages - 1 && freshStage ? ' fresh' : '') }))),
        colourCounts(this, c.cards, fresh)),
      v.projects ? edificeCityLine(this, i, sum) : null,
      v.armada ? armadaCityBlock(this, i, n > 6 ? 'chips' : 'compact') : null);
    }
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
      return h('div', { class: 'trade-line', title: `${t('buyFrom')} (${t(dir)}, ${this.cityLabel(o)})` },
        h('span', { class: 'muted' }, dir === 'left' ? `${t('buyShort')} ← ` : `${t('buyShort')} → `),
        groups.size ? [...groups].map(([p, ls]) => h('span', { class: 'trade-group' }, ls.map(resIcon), ` ${p} ${t('each')}`))
          : h('span', { class: 'muted' }, t('nothingMade')));
    }) : null;
    const sellsDiffers = sum && JSON.stringify(sum.for_sale) !== JSON.stringify(sum.production);
    const sci = sum ? [['◎', 0], ['⚙', 1], ['▤', 2]].map(([g, k]) => h('span', { class: 'sci', title: t(['compass', 'gear', 'tablet'][k]) }, g + ' ' + sum.science[k])) : [];
    // Armada: your city and your whole shipyard board side by side (at a laptop's table; on a
    // phone one below the other), so that neither needs scrolling.
    const withYard = role === 'mine' && v.armada && !expanded;
    const city = [
      wonderBoard(this, c.wonder, choosing ? null : c.side, c.stages, { fresh: freshStage }),
      builtColumns(this, c.cards, fresh, expanded),
      sum ? h('div', { class: 'summary' },
        h('div', { class: 'prod' }, h('span', { class: 'muted' }, t('produces') + ': '), this.productionLine(sum.production),
          sellsDiffers ? [h('span', { class: 'muted' }, ' · ' + t('sells') + ': '), this.productionLine(sum.for_sale)] : null),
        role === 'mine' || sum.science_points || sum.science_wild ? h('div', { class: 'sci-line' }, h('span', { class: 'muted' }, t('science') + ': '), sci,
          sum.science_wild ? h('span', { class: 'sci' }, '✱ ' + sum.science_wild) : null,
          ` = ${pointsNow(sum.science_points)}`) : null,
        v.projects ? edificeCityLine(this, i, sum) : null,
        trade) : null];
    if (withYard) {
      return h('div', { class: 'city full ' + role + ' with-yard', dataset: { city: i } },
        head, h('div', { class: 'mine-city' }, city), armadaCityBlock(this, i, 'mine'));
    }
    return h('div', { class: 'city full ' + role + (expanded ? ' expanded' : ''), dataset: { city: i } },
      head, city,
      v.armada ? armadaCityBlock(this, i, role === 'mine' || expanded || this.state.you === null ? role : 'compact') : null);
  }

  citiesPanel(over) {
    const st = this.state;
    const v = st.view;
    const n = v.cities.length;
    if (st.you === null || over) {
      return h('section', { class: 'panel cities' }, h('h2', {}, t('allCities')),
        h('div', { class: 'city-grid', 'data-keep-scroll': 'grid' }, v.cities.map((_, i) => this.cityPanel(i, st.you === i ? 'mine' : 'other', 'full', over))));
    }
    const me = st.you;
    const left = (me + 1) % n;
    const right = (me + n - 1) % n;
    const others = v.cities.map((_, i) => i).filter(i => i !== me && i !== left && i !== right);
    return h('section', { class: 'cities' },
      others.length ? h('div', { class: 'others-strip', 'aria-label': t('otherCities') }, others.map(i => this.cityPanel(i, 'other', 'compact'))) : null,
      h('div', { class: 'neighbour-row' + (v.armada ? ' with-yard' : ''), 'data-keep-scroll': 'row' },
        left !== right ? this.cityPanel(left, 'left', 'full') : null,
        this.cityPanel(me, 'mine', 'full'),
        this.cityPanel(right, 'right', 'full')),
      n > 2 ? h('p', { class: 'swipe-hint muted' }, t('swipeHint')) : null);
  }

  // A card or a city looked at in full (a built card tapped, a compact city tapped).
  peekPanel() {
    const p = this.peek;
    if (!p) return null;
    const close = h('button', { type: 'button', class: 'close', id: 'peek-close', 'aria-label': t('close'), onclick: () => { this.peek = null; this.render(); } }, '✕');
    if (p.card) {
      return h('section', { class: 'panel peek', id: 'peek' }, h('div', { class: 'panel-head' }, h('h2', {}, cardName(this.cat, p.card)), close),
        this.cardBox(p.card, undefined, { city: p.city }));
    }
    return h('section', { class: 'panel peek', id: 'peek' }, h('div', { class: 'panel-head' }, h('h2', {}, this.cityLabel(p.city)), close),
      this.cityPanel(p.city, 'other', 'full', true));
  }

  // ------------------------------------------------------------ the log

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
    const fresh = this.changes ? this.changes.from : hist.length;
    const groups = [];
    hist.forEach((e, k) => {
      const key = e.age + '.' + e.turn + '.' + (e.played === 'built_discarded' || e.played === 'passed' ? 'd' : '');
      if (!groups.length || groups[groups.length - 1].key !== key) groups.push({ key, age: e.age, turn: e.turn, list: [] });
      groups[groups.length - 1].list.push({ e, fresh: k >= fresh });
    });
    // An Age-end block after each Age's last group.
    const blocks = [];
    const ends = new Map((st.age_ends || []).map(x => [x.age, x]));
    groups.forEach((g, k) => {
      blocks.push({ kind: 'turn', g });
      const next = groups[k + 1];
      if (ends.has(g.age) && (!next || next.age !== g.age) && g.turn !== 0) blocks.push({ kind: 'end', end: ends.get(g.age) });
    });
    blocks.reverse();
    // While playing, the last turns (the earlier ones a click away); the whole log at the end.
    const all = this.fullLog || st.table.status === 'over';
    const shown = all ? blocks : blocks.slice(0, LOG_BLOCKS);
    const more = blocks.length - shown.length;
    return h('section', { class: 'panel log' }, h('h2', {}, t('log')),
      h('div', { class: 'log-list', 'data-keep-scroll': 'log' }, shown.map(b => {
        if (b.kind === 'end') {
          return h('div', { class: 'log-turn log-age-end' }, h('b', {}, `${t('ageEnd')} ${ROMAN[b.end.age]} — ${t('conflicts')}`),
            h('ul', {}, b.end.cities.map((c, i) => h('li', { dataset: { city: i } }, `${this.cityLabel(i)} (${c.shields}⚔): `,
              [[c.left, (i + 1) % n], [c.right, (i + n - 1) % n]].map(([tok, o], k) => [k ? ', ' : '', this.conflictCell(tok, o, b.end.cities[o].shields, i)])))),
            armadaAgeEnd(this, b.end), edificeAgeEnd(this, b.end.age));
        }
        const g = b.g;
        const trade = tradeIncome(g.list.map(x => x.e), n);
        const title = g.turn === 0 ? t('setupSides') : `${t('age')} ${ROMAN[g.age] || g.age} · ${t('turn')} ${g.turn === turnsPerAge(this) + 1 ? turnsPerAge(this) + '+' : g.turn}`;
        return h('div', { class: 'log-turn' }, h('b', {}, title),
          h('ul', {}, g.list.map(x => h('li', { class: x.fresh ? 'fresh' : '' }, this.logText(x.e, trade[x.e.seat])))));
      }), more ? h('button', { type: 'button', class: 'log-more', onclick: () => { this.fullLog = true; this.render(); } },
        plural(more, 'earlierBlocks')) : null));
  }

  // ------------------------------------------------------------ what just happened

  // After the render that follows a resolved step: the coins paid fly from the payer to the
  // city paid (not under prefers-reduced-motion; the cards built and the coin changes are
  // marked in the page either way).
  playChanges() {
    const ch = this.changes;
    if (!ch || !ch.payments.length || reducedMotion()) return;
    const at = i => {
      const e = document.querySelector(`.cities .city[data-city="${i}"] .coin-stat .coin`);
      if (!e) return null;
      const r = e.getBoundingClientRect();
      return r.width && r.bottom > 0 && r.top < innerHeight ? r : null;
    };
    for (const p of ch.payments) {
      const a = at(p.from);
      const b = at(p.to);
      if (!a || !b) continue;
      const coin = h('span', { class: 'coin flying-coin', 'aria-hidden': 'true' }, p.coins);
      coin.style.left = a.left + 'px';
      coin.style.top = a.top + 'px';
      document.body.append(coin);
      requestAnimationFrame(() => requestAnimationFrame(() => {
        coin.style.transform = `translate(${b.left - a.left}px, ${b.top - a.top}px)`;
        coin.classList.add('moving');
      }));
      setTimeout(() => coin.remove(), 1200);
    }
  }

  // ------------------------------------------------------------ the end

  gameOverPanel() {
    const st = this.state;
    const exps = st.table.expansions || [];
    const cats = [...CATS, ...(exps.includes('edifice') ? ['edifice'] : []), ...(exps.includes('armada') ? ARMADA_CATS : [])];
    const lines = st.scores || [];
    const v = st.view;
    const rematchId = st.table.rematch;
    const ranked = lines.map((l, i) => ({ l, i })).filter(x => x.l.rank !== null && x.l.rank !== undefined);
    const mine = st.you !== null ? lines[st.you] : null;
    const winners = ranked.filter(x => x.l.rank === 1).map(x => this.cityLabel(x.i));
    const teams = !!v.teams;
    const count = teams ? Math.floor(ranked.length / 2) : ranked.length;
    let headline;
    if (mine && mine.rank) {
      const text = teams
        ? (zh() ? `你的隊伍：${ordinal(mine.rank)}（共 ${count} 隊）` : `Your team finished ${ordinal(mine.rank)} of ${count} teams`)
        : (zh() ? `${t('youFinished')}${ordinal(mine.rank)}（${t('of')} ${count} 人）` : `${t('youFinished')} ${ordinal(mine.rank)} ${t('of')} ${count}`);
      headline = h('p', { class: 'finish', id: 'finish' }, text, mine.rank === 1 ? h('span', { class: 'trophy', 'aria-hidden': 'true' }, ' ★') : '');
    } else {
      headline = h('p', { class: 'finish' }, `${t('winnerIs')}: ${winners.join(', ')}`);
    }
    const head = c => h('th', { class: 'cat-' + c, title: t(c) }, catIcon(c), h('span', { class: 'cat-label' }, t(c)));
    return h('section', { class: 'panel scores' },
      h('h2', {}, t('scores')), headline, teams ? teamTotals(this, lines) : '',
      h('div', { class: 'table-scroll sheet-box' }, h('table', { class: 'score-sheet' },
        h('thead', {}, h('tr', {}, h('th', { class: 'who' }, ''), h('th', { class: 'wonder-col' }, t('wonder')), cats.map(head),
          h('th', { class: 'cat-total', title: t('total') }, h('span', { class: 'cat-label' }, t('total')), h('span', { class: 'cat-short' }, 'Σ')),
          h('th', { class: 'coins-col', title: t('coinsLeft') }, h('span', { class: 'cat-label' }, t('coinsLeft')), h('span', { class: 'cat-short' }, '¤')),
          h('th', { class: 'rank-col', title: t('rank') }, h('span', { class: 'cat-label' }, t('rank')), h('span', { class: 'cat-short' }, '#')))),
        h('tbody', {}, lines.map((l, i) => {
          const c = v.cities[i];
          return h('tr', { class: (l.rank === 1 ? 'winner' : '') + (st.you === i ? ' me' : '') },
            h('th', { class: 'who', title: this.cityLabel(i) }, this.whoLabel(i)),
            h('td', { class: 'wonder-cell wonder-col' }, `${wonderName(this.cat, c.wonder)} ${sideLabel(c.side)} · ${c.stages}/${c.stages_total}`),
            cats.map(k => h('td', { class: 'cat-' + k }, l[k] ?? 0)),
            h('td', { class: 'cat-total' }, l.total), h('td', { class: 'coins-left' }, l.coins),
            h('td', { class: 'rank' }, l.rank === null || l.rank === undefined ? '–' : l.rank));
        })))),
      h('h3', {}, t('chart')), scoreChart(this, lines, cats, i => (teams ? this.seatName(i) : this.cityLabel(i))),
      h('div', { class: 'after' },
        h('button', { class: 'primary', id: 'rematch', type: 'button', onclick: () => this.rematch() },
          rematchId ? t('joinRematch') : t('rematch')),
        ' ', h('a', { href: `/api/tables/${this.id}/record`, download: `wonders-${this.id}.json`, id: 'record' }, '⬇ ' + t('record')),
        store.token(this.id) && !this.review
          ? h('button', { type: 'button', id: 'review-button', disabled: this.reviewing,
            title: ed('Each of your decisions beside the search bot\'s preferred move, and your estimated chances through the game',
              '你的每個決定與搜尋電腦的首選對照，以及整局的估計勝率'),
            onclick: () => this.askReview() }, this.reviewing ? ed('Reviewing… (a few seconds)', '分析中…（數秒）') : ed('Review my game', '復盤我的對局'))
          : null));
  }

  async rematch() {
    try {
      const mine = store.token(this.id);
      const info = await api('POST', `/api/tables/${this.id}/rematch`, {}, mine && mine.token);
      if (mine && !store.token(info.id)) {
        const seat = info.seats[mine.seat];
        if (seat && !seat.taken) {
          const who = this.state.table.seats[mine.seat].name || store.name || 'Player';
          const tok = await api('POST', `/api/tables/${info.id}/seats/${mine.seat}`, { name: who }, mine.token);
          store.setToken(info.id, tok.seat, tok.token);
        }
      }
      go('/t/' + info.id);
    } catch (e) { banner(cleanMessage(e.message)); }
  }
}

// What a resolved step changed, from the state before and after it: the cards each city built,
// its wonder stages, its coins, and who paid whom (from the new log entries). `null` when no
// step resolved between the two.
function stepChanges(old, msg) {
  if (!old || !old.view || !msg.view || old.table.id !== msg.table.id) return null;
  const before = old.history || [];
  const after = msg.history || [];
  if (after.length <= before.length) return null;
  const n = msg.view.cities.length;
  const cards = msg.view.cities.map((c, i) => {
    const had = (old.view.cities[i] || { cards: [] }).cards.slice();
    const fresh = [];
    for (const name of c.cards) {
      const k = had.indexOf(name);
      if (k >= 0) had.splice(k, 1); else fresh.push(name);
    }
    return fresh;
  });
  const stages = msg.view.cities.map((c, i) => Math.max(0, c.stages - ((old.view.cities[i] || {}).stages || 0)));
  const coins = msg.view.cities.map((c, i) => c.coins - ((old.view.cities[i] || {}).coins ?? c.coins));
  const payments = [];
  for (const e of after.slice(before.length)) {
    if (e.left) payments.push({ from: e.seat, to: (e.seat + 1) % n, coins: e.left });
    if (e.right) payments.push({ from: e.seat, to: (e.seat + n - 1) % n, coins: e.right });
  }
  return { from: before.length, cards, stages, coins, payments };
}

function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
}

// "1:25 left" of a turn timer of `secs` seconds counted from `since`.
function timerText(deadline) {
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  const m = Math.floor(left / 60);
  const s2 = String(left % 60).padStart(2, '0');
  return `${m}:${s2}`;
}

function clockIcon() {
  return s('svg', { class: 'clock', viewBox: '0 0 16 16', width: 14, height: 14, 'aria-hidden': 'true' },
    s('circle', { cx: 8, cy: 8, r: 6.5, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6 }),
    s('path', { d: 'M8 4 V8 L11 10', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6, 'stroke-linecap': 'round' }));
}

function cityHas(city, name) { return !!city && city.cards.includes(name); }

// ---------------------------------------------------------------- words

// Counted words that agree with their numbers: "1 card", "2 cards".
const PLURALS = {
  cards: [n => `${n} card${n === 1 ? '' : 's'}`, n => `${n} 張牌`],
  pawnsLeft: [n => `${n} pawn${n === 1 ? '' : 's'} left`, n => `剩${n}個棋子`],
  islandCount: [n => `${n} island${n === 1 ? '' : 's'}`, n => `${n} 個島嶼`],
  earlierBlocks: [n => `Show ${n} earlier block${n === 1 ? '' : 's'}`, n => `顯示更早的 ${n} 段`],
  discardPileCount: [n => `${n} card${n === 1 ? '' : 's'} in the discard pile`, n => `棄牌堆 ${n} 張`],
  discardedCount: [n => `${n} discarded`, n => `棄牌 ${n}`],
  shieldCount: [n => `${n} shield${n === 1 ? '' : 's'}`, n => `${n} 個盾牌`],
};
function plural(n, key) {
  const p = PLURALS[key];
  return p ? (zh() ? p[1](n) : p[0](n)) : `${n} ${key}`;
}

// The engine's texts say "N coin(s)": the page says "1 coin", "2 coins".
function fixPlurals(text) {
  return String(text).replace(/\b(\d+) coin\(s\)/g, (m, n) => (n === '1' ? '1 coin' : `${n} coins`))
    .replace(/\b(\d+) card\(s\)/g, (m, n) => (n === '1' ? '1 card' : `${n} cards`));
}

// The server's messages may name the documents they come from ("(edifice.md §5.1)", "(000 …)")
// or a command-line option: a player is shown the sentence alone.
function cleanMessage(text) {
  return fixPlurals(String(text || ''))
    .replace(/\s*\((?:[^()]*\.md\b[^()]*|000[^()]*|--[a-z][^()]*)\)/g, '')
    .replace(/\s*\b[a-z-]+\.md §[\d.]+/g, '');
}

// ---------------------------------------------------------------- bots

// Bots get a name and a level a player understands, instead of their engine's id.
const BOT_PERSONAS = [['Hypatia', '希帕提婭'], ['Imhotep', '印和闐'], ['Sappho', '莎芙'], ['Archimedes', '阿基米德'],
  ['Nefertiti', '娜芙蒂蒂'], ['Pericles', '伯里克利'], ['Zenobia', '芝諾比婭'], ['Thales', '泰勒斯']];
function botLevel(bot) {
  const b = String(bot || '');
  if (b === 'random') return [ed('easy', '簡單'), ed('plays at random', '隨機出牌')];
  if (b === 'heuristic') return [ed('medium', '中等'), ed('sensible moves', '穩健出牌')];
  if (b === 'search' || b.startsWith('search:')) return [ed('hard', '困難'), ed('looks ahead, thinks longer', '會預想後續，思考較久')];
  if (b.startsWith('exec:')) return [ed('guest program', '外部程式'), ed('a program the host installed', '主機安裝的程式')];
  return [b, ''];
}
function botPersona(seat) {
  const p = BOT_PERSONAS[seat % BOT_PERSONAS.length];
  return zh() ? p[1] : p[0];
}
// A seat as players see it: a person's name, or a bot's name and level.
function seatDisplayName(seat) {
  if (seat.bot) return `${botPersona(seat.seat)} (${ed('bot', '電腦')}, ${botLevel(seat.bot)[0]})`;
  return seat.name || '#' + (seat.seat + 1);
}

// ---------------------------------------------------------------- the lobby's setups

// Why a table cannot be set up as chosen (the rules the server applies), before Create.
function setupProblems(o) {
  const out = [];
  const p = Number(o.players);
  if (o.teams && !(p === 4 || p === 6 || (p === 8 && o.armada))) {
    out.push(p === 8 ? ed('Teams of 8 play only with Armada.', '8 人團隊遊戲需搭配艦隊擴充。')
      : ed(`Team games are for 4, 6 or 8 players (8 with Armada), not ${p}.`, `團隊遊戲限 4、6 或 8 人（8 人需艦隊擴充），不能 ${p} 人。`));
  }
  if (p === 2 && o.edition === '2e') out.push(ed('2 players play the 1st edition\'s Free City variant only.', '2 人遊戲只有第一版的自由城市變體。'));
  if (p === 8 && !o.armada) out.push(ed('8 players need the Armada expansion.', '8 人遊戲需要艦隊擴充。'));
  if (p === 2 && o.armada) out.push(ed('Armada is played with 3 to 8 players.', '艦隊擴充限 3 至 8 人。'));
  if (o.edifice && (p === 2 || p === 8)) out.push(ed('Edifice is played with 3 to 7 players.', '穹樓擴充限 3 至 7 人。'));
  return out;
}

// ---------------------------------------------------------------- marks and icons

// Values no printed source confirms: one small sign, explained in the key.
function provisionalMark() {
  return h('sup', { class: 'provisional', title: t('provisionalKey') }, '†');
}

// The score categories' icons (one drawing each, in the category's colour).
function catIcon(k) {
  const c = CAT_COLOURS[k] || '#888';
  const p = (d, extra) => s('path', Object.assign({ d, fill: c }, extra || {}));
  let body;
  switch (k) {
    case 'military': body = [p('M8 1 L14 3 L14 8 C14 12 11 14.5 8 15.5 C5 14.5 2 12 2 8 L2 3 Z'), s('path', { d: 'M5 5 L11 11 M11 5 L5 11', stroke: '#fff', 'stroke-width': 1.6 })]; break;
    case 'treasury': body = [s('circle', { cx: 8, cy: 8, r: 6.5, fill: c, stroke: '#8a6a00', 'stroke-width': 1.2 }), s('circle', { cx: 8, cy: 8, r: 3.2, fill: 'none', stroke: '#8a6a00', 'stroke-width': 1 })]; break;
    case 'wonder': body = [p('M1 14 L8 2 L15 14 Z'), s('path', { d: 'M5 14 L8 8 L11 14', fill: 'rgba(255,255,255,.35)' })]; break;
    case 'civilian': body = [p('M1 6 L8 1.5 L15 6 Z'), p('M2.5 7 h2 v6 h-2z M7 7 h2 v6 h-2z M11.5 7 h2 v6 h-2z M1 13.5 h14 v1.5 h-14z')]; break;
    case 'science': body = [s('circle', { cx: 8, cy: 8, r: 6, fill: 'none', stroke: c, 'stroke-width': 2 }), p('M8 3 L9.5 8 L8 13 L6.5 8 Z')]; break;
    case 'commercial': body = [p('M5 1.5 h6 v2 l-1 1 c3 1.5 4 4 4 6.5 c0 2.5 -2 4.5 -6 4.5 s-6 -2 -6 -4.5 c0 -2.5 1 -5 4 -6.5 l-1 -1z')]; break;
    case 'guilds': body = [p('M2 2 h12 v6 c0 4 -3 6.5 -6 7.5 c-3 -1 -6 -3.5 -6 -7.5z'), s('path', { d: 'M8 4.5 l1.2 2.5 2.6 .3 -2 1.8 .6 2.6 -2.4 -1.4 -2.4 1.4 .6 -2.6 -2 -1.8 2.6 -.3z', fill: '#fff' })]; break;
    case 'edifice': body = [p('M2 15 V7 a6 6 0 0 1 12 0 V15 h-3 V8 a3 3 0 0 0 -6 0 V15z')]; break;
    case 'naval': body = [s('path', { d: 'M8 3 V14 M4 6.5 H12 M2.5 10 C3.5 13.5 12.5 13.5 13.5 10', fill: 'none', stroke: c, 'stroke-width': 1.8 }), s('circle', { cx: 8, cy: 2.5, r: 1.6, fill: 'none', stroke: c, 'stroke-width': 1.3 })]; break;
    case 'fleet': body = [p('M1 11 h14 l-2.5 3.5 h-9z'), p('M7 1.5 V10 H2.5z'), p('M8.2 3 V10 h4.8z')]; break;
    case 'islands': body = [p('M1 14 c2 -3 12 -3 14 0z'), s('path', { d: 'M8 12 C8 8 7 6 6 4 M6 4 C4 3 2.5 4 2 5 M6 4 C7 2 9.5 2 10.5 3 M6 4 C8 4 10 5 10.5 6.5', fill: 'none', stroke: c, 'stroke-width': 1.5 })]; break;
    default: body = [s('rect', { x: 2, y: 2, width: 12, height: 12, rx: 3, fill: c })];
  }
  return s('svg', { class: 'cat-icon cat-icon-' + k, viewBox: '0 0 16 16', width: 16, height: 16, 'aria-hidden': 'true' }, body);
}

// An expansion's sign: its score category's icon, the same in the lobby, the table and the sheet.
function expansionIcon(x) { return catIcon(x === 'armada' ? 'naval' : x); }

function catKey() {
  const cats = [...CATS, 'edifice', ...ARMADA_CATS];
  return [h('b', {}, t('categories') + ': '), cats.map(k => h('span', { class: 'key-item' }, catIcon(k), ' ', t(k)))];
}

// A small sign of what a card does, from its effect: the resources it makes, its shields, its
// points, its science symbol, coins, a guild's crest, a naval card's anchor.
function cardGlyph(d) {
  if (!d) return null;
  const e = d.effect || '';
  let m;
  let inner;
  if ((d.colour === 'brown' || d.colour === 'grey') && (m = e.match(/^produces ([WSCOGLP/]+)/))) {
    inner = [...m[1].replace(/\//g, '')].slice(0, 2).map(resIcon);
  } else if ((m = e.match(/(\d+) naval strength/))) inner = '⚓' + m[1];
  else if ((m = e.match(/(\d+) shields?/))) inner = '⚔' + m[1];
  else if (d.colour === 'green') inner = /compass/.test(e) ? '◎' : /gear/.test(e) ? '⚙' : /tablet/.test(e) ? '▤' : '✱';
  else if (d.colour === 'blue' && (m = e.match(/^(\d+) VP/))) inner = m[1];
  else if (d.colour === 'yellow') inner = '¤';
  else if (d.colour === 'purple') inner = '♛';
  else return null;
  return h('span', { class: 'glyph g-' + d.colour, 'aria-hidden': 'true' }, inner);
}

// A city's built cards stacked in colour columns, each with its name and sign; tapped (or
// hovered) it shows the whole card.
function builtColumns(page, cards, fresh, expanded) {
  const cat = page.cat;
  const byColour = new Map(COLOURS.map(col => [col, []]));
  for (const name of cards) {
    const d = cardDef(cat, name);
    const col = d ? d.colour : 'grey';
    if (!byColour.has(col)) byColour.set(col, []);
    byColour.get(col).push(name);
  }
  const left = fresh.slice();
  const anim = page.animNow ? ' anim' : '';
  return h('div', { class: 'built' + (expanded ? ' expanded' : '') },
    [...byColour].filter(([, l]) => l.length).map(([col, list]) => h('div', { class: 'col col-' + col },
      list.map(name => {
        const d = cardDef(cat, name);
        const k = left.indexOf(name);
        const isFresh = k >= 0;
        if (isFresh) left.splice(k, 1);
        return h('span', { class: 'mini c-' + col + (isFresh ? ' fresh' + anim : ''), title: d ? `${cardName(cat, name)}: ${fixPlurals(effectText(d))}` : name,
          role: 'button', tabindex: 0, onclick: ev => { ev.stopPropagation(); page.peek = { card: name }; page.picked = null; page.render(); } },
        cardGlyph(d), h('span', { class: 'mini-name' }, cardName(cat, name)),
        expanded && d ? h('small', { class: 'mini-effect' }, ' · ', withIcons(effectText(d))) : null);
      }))));
}

// A compact city's cards: how many of each colour (their names in the title).
function colourCounts(page, cards, fresh) {
  const by = new Map();
  for (const name of cards) {
    const d = cardDef(page.cat, name);
    const col = d ? d.colour : 'grey';
    if (!by.has(col)) by.set(col, []);
    by.get(col).push(name);
  }
  const anim = page.animNow ? ' anim' : '';
  return h('span', { class: 'colour-counts' }, COLOURS.filter(c => by.has(c)).map(col => h('span', {
    class: 'count mini c-' + col + (by.get(col).some(n => fresh.includes(n)) ? ' fresh' + anim : ''),
    title: by.get(col).map(n => cardName(page.cat, n)).join(', '),
  }, by.get(col).length)));
}

// ---------------------------------------------------------------- wonder boards

// A wonder board: the illustration of its wonder (day or night side), its name, its starting
// resource, and its stage slots, filled as they are built. `side` null: not chosen yet.
function wonderBoard(page, name, side, built, opts) {
  const o = opts || {};
  const cat = page.cat;
  const w = cat.wonders.get(name);
  const sd = w && side ? w.sides.find(x => x.label === side) : null;
  const night = side === 'B' || side === 'Night';
  const stages = sd ? sd.stages : [];
  const anim = page.animNow ? ' anim' : '';
  return h('div', { class: 'board ' + (side === null ? 'unchosen' : night ? 'night' : 'day') + (o.preview ? ' preview' : ''), dataset: { wonder: name } },
    boardArt(name, night),
    h('div', { class: 'board-top' },
      h('span', { class: 'wonder-name' }, wonderName(cat, name) + (side ? ' · ' + sideLabel(side) : '')),
      side === null ? h('span', { class: 'side-unchosen' }, t('sideNotChosen')) : null,
      w ? h('span', { class: 'start-res', title: t('produces') + ': ' + resName(w.start) }, resIcon(w.start)) : null),
    sd ? h('ol', { class: 'stages' }, stages.map((x, k) => h('li', {
      class: 'stage' + (k < built ? ' built' : k === built ? ' next' : '') + (o.fresh && k === built - 1 ? ' fresh' + anim : ''),
      title: `${t('stage')} ${k + 1}: ${fixPlurals(effectText(x))}`,
    }, h('span', { class: 'stage-cost' }, k < built ? h('span', { class: 'stage-done' }, '✓') : costIcons(0, x.cost)),
    h('small', { class: 'stage-effect' }, withIcons(effectText(x)))))) : null);
}

// The illustrations: a sky, the land, and each wonder's silhouette (drawn here, no artwork).
function boardArt(name, night) {
  const ink = night ? '#d8c48a' : '#6e4f29';
  const f = (d, extra) => s('path', Object.assign({ d, fill: ink }, extra || {}));
  const poly = (points, fill) => s('polygon', { points, fill: fill || ink });
  const rect = (x, y, w, hh, fill) => s('rect', { x, y, width: w, height: hh, fill: fill || ink });
  const water = night ? '#3b5a8c' : '#6fa8c8';
  const leaf = night ? '#7fae7a' : '#4f8a3c';
  let art;
  switch (name) {
    case 'Giza': art = [poly('150,64 176,40 202,64'), poly('176,64 222,16 268,64'), poly('238,64 266,36 294,64'),
      s('path', { d: 'M222 16 L268 64 L244 64 Z', fill: night ? 'rgba(0,0,0,.25)' : 'rgba(255,255,255,.25)' })]; break;
    case 'Rhodes': art = [rect(150, 58, 150, 8, water),
      poly('204,64 212,64 222,42 230,42 240,64 248,64 236,36 236,24 246,10 250,4 254,7 242,26 232,26 232,21 220,21 216,36'),
      s('circle', { cx: 226, cy: 15, r: 5, fill: ink }), s('circle', { cx: 251, cy: 3, r: 3, fill: '#f0a020' })]; break;
    case 'Alexandria': art = [rect(150, 58, 150, 8, water), rect(200, 40, 50, 22), rect(210, 24, 30, 16), rect(218, 12, 14, 12),
      s('circle', { cx: 225, cy: 8, r: 4, fill: '#f0a020' }),
      s('path', { d: 'M225 8 L190 0 M225 8 L260 0 M225 8 L185 14 M225 8 L265 14', stroke: '#f0c050', 'stroke-width': 1.2, opacity: 0.8 })]; break;
    case 'Ephesos': art = [rect(168, 56, 124, 8), poly('172,22 230,4 288,22'), rect(172, 22, 116, 6),
      [0, 1, 2, 3, 4, 5, 6, 7].map(k => rect(178 + k * 14.5, 30, 6, 26))]; break;
    case 'Babylon': art = [rect(168, 50, 124, 14), rect(184, 38, 92, 12), rect(200, 26, 60, 12), rect(214, 16, 32, 10),
      [[172, 48], [190, 36], [206, 24], [254, 24], [270, 36], [288, 48], [220, 14], [240, 14]].map(([x, y]) => s('circle', { cx: x, cy: y, r: 4.5, fill: leaf }))]; break;
    case 'Olympia': art = [poly('184,20 230,4 276,20'), rect(188, 20, 8, 44), rect(264, 20, 8, 44),
      s('circle', { cx: 230, cy: 24, r: 6, fill: ink }), poly('216,31 244,31 250,52 210,52'), rect(212, 52, 36, 12), rect(206, 42, 6, 22), rect(248, 42, 6, 22)]; break;
    case 'Halicarnassus': art = [rect(188, 42, 84, 22), [0, 1, 2, 3, 4, 5].map(k => rect(192 + k * 14.5, 28, 5, 14)),
      poly('190,28 270,28 256,16 204,16'), rect(222, 9, 16, 7)]; break;
    case 'Ur': art = [poly('166,64 294,64 282,48 178,48'), poly('190,48 270,48 260,34 200,34'), poly('210,34 250,34 244,22 216,22'),
      rect(222, 13, 16, 9), poly('224,64 236,64 233,22 227,22', night ? '#b09a60' : '#8c6a3c')]; break;
    case 'Carthage': art = [rect(150, 58, 150, 8, water), rect(160, 42, 140, 18), [0, 1, 2, 3, 4, 5, 6, 7, 8].map(k => rect(160 + k * 16, 37, 8, 5)),
      rect(218, 20, 22, 22), s('circle', { cx: 229, cy: 20, r: 11, fill: ink }),
      f('M168 60 h26 l-4 5 h-18z'), f('M262 60 h26 l-4 5 h-18z'), poly('180,60 180,48 190,58'), poly('274,60 274,48 284,58')]; break;
    default: art = [poly('180,64 230,20 280,64')];
  }
  const stars = night ? [[30, 10], [70, 18], [110, 8], [140, 22], [300, 12], [265, 28], [16, 30]].map(([x, y]) => s('circle', { cx: x, cy: y, r: 1.2, fill: '#fff' })) : null;
  return s('svg', { class: 'board-art', viewBox: '0 0 320 90', preserveAspectRatio: 'xMaxYMid slice', 'aria-hidden': 'true' },
    s('rect', { x: 0, y: 0, width: 320, height: 90, fill: night ? '#252d55' : '#f5e2b0' }),
    night ? s('circle', { cx: 300, cy: 14, r: 7, fill: '#f2e6b8' }) : s('circle', { cx: 296, cy: 16, r: 10, fill: '#f7c948' }),
    stars,
    s('path', { d: 'M0 66 C60 54 120 60 170 62 C230 64 280 56 320 60 L320 90 L0 90 Z', fill: night ? '#1b2145' : '#e3c585' }),
    art,
    s('rect', { x: 0, y: 64, width: 320, height: 26, fill: night ? '#171c3a' : '#d8b472' }));
}

// ---------------------------------------------------------------- the score chart

// Each player's points by category as a stacked bar (negative military, naval or Edifice points
// to the left of 0); names clear of the bars (cut to fit, whole in their title), the key wrapped
// onto as many lines as it needs.
function scoreChart(page, lines, cats, labelOf) {
  // A phone's chart is drawn narrower, not shrunk: its text stays readable.
  const narrow = !!(window.matchMedia && window.matchMedia(NARROW).matches);
  const W = narrow ? 360 : 720; const rowH = 26; const font = 12;
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${font}px ${getComputedStyle(document.body).fontFamily}`;
  const width = text => ctx.measureText(text).width;
  const names = lines.map((_, i) => labelOf(i));
  const labelW = Math.min(narrow ? 96 : 200, Math.max(60, ...names.map(n => width(n) + 10)));
  const fit = text => {
    if (width(text) <= labelW - 10) return text;
    let cut = text;
    while (cut.length > 1 && width(cut + '…') > labelW - 10) cut = cut.slice(0, -1);
    return cut + '…';
  };
  const negOf = l => cats.reduce((a, k) => a + Math.max(0, -(l[k] || 0)), 0);
  const neg = Math.max(0, ...lines.map(negOf));
  const pos = Math.max(1, ...lines.map(l => cats.reduce((a, k) => a + Math.max(0, l[k] || 0), 0)));
  const scale = (W - labelW - 40) / (pos + neg);
  const x0 = labelW + neg * scale;
  const rows = lines.map((l, i) => {
    let x = x0;
    let xn = x0;
    const y = i * rowH + 4;
    const bars = [];
    for (const k of cats) {
      const v = l[k] || 0;
      if (v >= 0) continue;
      xn += v * scale;
      bars.push(s('rect', { x: xn, y, width: -v * scale, height: rowH - 8, fill: CAT_COLOURS[k], opacity: 0.55, class: 'neg-' + k },
        s('title', {}, `${t(k)} ${v}`)));
    }
    for (const k of cats) {
      const val = Math.max(0, l[k] || 0);
      if (!val) continue;
      bars.push(s('rect', { x, y, width: val * scale, height: rowH - 8, fill: CAT_COLOURS[k], class: 'bar-' + k }, s('title', {}, `${t(k)} ${l[k]}`)));
      if (val * scale > 16) bars.push(s('text', { x: x + val * scale / 2, y: y + rowH / 2 + 1, 'text-anchor': 'middle', 'font-size': 10, fill: LIGHT_CATS.includes(k) ? '#2b2418' : '#fff' }, val));
      x += val * scale;
    }
    return s('g', { class: 'row' }, s('text', { class: 'name', x: 4, y: y + rowH / 2 + 1, 'font-size': font }, fit(names[i]), s('title', {}, names[i])), bars,
      s('text', { x: x + 4, y: y + rowH / 2 + 1, 'font-size': font, 'font-weight': 700 }, l.total));
  });
  // The key, wrapped.
  const keyFont = 11;
  ctx.font = `${keyFont}px ${getComputedStyle(document.body).fontFamily}`;
  let lx = 4;
  let ly = lines.length * rowH + 12;
  const legend = cats.map(k => {
    const w = 18 + ctx.measureText(t(k)).width + 14;
    if (lx + w > W) { lx = 4; ly += 18; }
    const x = lx;
    lx += w;
    return s('g', { class: 'key key-' + k, 'data-cat': k }, s('rect', { x, y: ly, width: 12, height: 12, rx: 2, fill: CAT_COLOURS[k] }),
      s('text', { x: x + 16, y: ly + 10, 'font-size': keyFont }, t(k)));
  });
  const height = ly + 20;
  return s('svg', { class: 'chart', id: 'score-chart', viewBox: `0 0 ${W} ${height}`, role: 'img', 'aria-label': t('chart') },
    rows, s('line', { x1: x0, x2: x0, y1: 0, y2: lines.length * rowH, stroke: '#2b2418' }), legend);
}

// ---------------------------------------------------------------- the review
// A finished game reviewed for a seat by the search bot (GET /api/tables/{id}/review): each
// decision beside the bot's preferred move with the estimated loss, and a chart of the seat's
// estimated chances of winning through the game with the biggest mistakes marked.

// A move of the review, named by its kind and card (the payment aside).
function reviewMove(page, a, stage) {
  const card = () => cardName(page.cat, a.card, a.age);
  switch (a.type) {
    case 'build': return `${t('build')} ${card()}`;
    case 'wonder': return `${t('buildStage')} ${stage} · ${card()}`;
    case 'discard': return ed(`Discard ${card()}`, `棄 ${card()}`);
    default: return page.genericLabel(a);
  }
}

function reviewPanel(page) {
  const r = page.review;
  const st = page.state;
  const pct = x => Math.round(x * 100) + '%';
  const yours = r.seat === st.you;
  const who = page.cityLabel(r.seat);
  const rows = r.decisions.map((d, k) => {
    const m = r.mistakes.indexOf(k);
    return h('li', { class: 'review-row' + (m >= 0 ? ' mistake' : '') + (d.same ? ' agreed' : d.loss <= 0.005 ? ' no-loss' : ''), dataset: { decision: k } },
      h('span', { class: 'review-when' }, m >= 0 ? h('span', { class: 'mistake-mark', title: ed('one of the biggest mistakes', '最大失誤之一') }, m + 1) : null,
        `${ROMAN[d.age] || d.age}·${d.turn}`),
      h('span', { class: 'review-played' }, reviewMove(page, d.played, d.stage), ' ', h('b', { class: 'review-chance' }, pct(d.win_chance))),
      d.same
        ? h('span', { class: 'review-best muted' }, ed('✓ the bot agrees', '✓ 電腦同意'))
        : h('span', { class: 'review-best' }, h('span', { class: 'muted' }, ed('bot: ', '電腦：')), reviewMove(page, d.best, d.stage), ' ',
          h('b', { class: 'review-chance' }, pct(d.best_win_chance))),
      h('span', { class: 'review-loss' + (d.mistake ? ' big' : '') }, d.loss > 0.005 ? '−' + pct(d.loss) : ''));
  });
  // The losses' mean, not their sum: each is an estimate of its own decision, and a sum of them
  // can pass 100%.
  const agreed = r.decisions.filter(d => d.same).length;
  const title = yours ? ed('Your game, reviewed', '你的對局復盤') : ed(`${who}'s game, reviewed`, `${who} 的對局復盤`);
  return h('section', { class: 'panel review', id: 'review' },
    h('div', { class: 'panel-head' }, h('h2', {}, title),
      h('button', { type: 'button', class: 'close', 'aria-label': ed('Close the review', '關閉復盤'), onclick: () => { page.review = null; page.render(); } }, '✕')),
    h('p', { class: 'review-summary' },
      ed(`${r.decisions.length} decisions · the bot agrees with ${agreed} · mean loss a decision: `,
        `${r.decisions.length} 個決定 · 電腦同意其中 ${agreed} 個 · 平均每個決定損失勝率 `),
      h('b', {}, pct(r.decisions.length ? r.total_loss / r.decisions.length : 0)),
      h('span', { class: 'muted' }, ed(` · estimates of the search bot, ${r.samples} sampled games a move`, ` · 搜尋電腦的估計，每步抽樣 ${r.samples} 局`))),
    reviewChart(page, r),
    h('ol', { class: 'review-list', id: 'review-list' },
      h('li', { class: 'review-row review-head', 'aria-hidden': 'true' },
        h('span', { class: 'review-when' }, ed('Turn', '回合')), h('span', { class: 'review-played' }, ed('played · chance to win', '所選 · 勝率')),
        h('span', { class: 'review-best' }, ed("the bot's choice", '電腦的首選')), h('span', { class: 'review-loss' }, ed('lost', '損失'))),
      rows));
}

// The chart: the estimated chance of winning at the start and after each decision, a band per
// Age, an even chance (one in the number of players) dashed, the biggest mistakes marked with
// their number and what the bot's move would have kept.
function reviewChart(page, r) {
  const pts = r.chart;
  const W = Math.max(300, Math.min(1000, (window.innerWidth || 720) - 60));
  const H = W < 480 ? 190 : 220;
  const L = 34, R = 10, T = 14, B = 24, font = 11;
  const n = pts.length;
  if (n < 2) return h('p', { class: 'muted' }, ed('No decision to chart.', '沒有可繪製的決定。'));
  const x = i => L + i * (W - L - R) / (n - 1);
  const y = v => T + (1 - v) * (H - T - B);
  const parts = [];
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(s('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: '#d9c9a8', 'stroke-width': 1 }));
    parts.push(s('text', { x: L - 4, y: y(v) + 4, 'text-anchor': 'end', 'font-size': font, fill: '#746852' }, Math.round(v * 100) + '%'));
  }
  // The Ages: point 0 is the start, point k + 1 follows decision k.
  const axisLabels = [];
  let from = 0;
  const ageOf = i => (i === 0 ? r.decisions[0] : r.decisions[i - 1]).age;
  for (let i = 1; i <= n; i++) {
    if (i < n && ageOf(i) === ageOf(from)) continue;
    const a = ageOf(from);
    const x0 = from === 0 ? L : (x(from - 1) + x(from)) / 2, x1 = i === n ? W - R : (x(i - 1) + x(i)) / 2;
    if (a % 2 === 0) parts.push(s('rect', { x: x0, y: T, width: x1 - x0, height: H - T - B, fill: '#f3ead6' }));
    if (from > 0) parts.push(s('line', { x1: x0, x2: x0, y1: T, y2: H - B, stroke: '#c9b48a', 'stroke-dasharray': '3 3' }));
    const ageLabel = `${ed('Age', '時代')} ${ROMAN[a] || a}`;
    parts.push(s('text', { x: (x0 + x1) / 2, y: H - 8, 'text-anchor': 'middle', 'font-size': font, fill: '#746852' }, ageLabel));
    axisLabels.push({ x0: (x0 + x1) / 2 - 3.5 * ageLabel.length, x1: (x0 + x1) / 2 + 3.5 * ageLabel.length, y0: H - 18, y1: H - 5 });
    from = i;
  }
  const even = 1 / page.state.view.cities.length;
  parts.push(s('line', { class: 'even', x1: L, x2: W - R, y1: y(even), y2: y(even), stroke: '#746852', 'stroke-dasharray': '5 4', 'stroke-width': 1 },
    s('title', {}, ed(`an even chance: ${Math.round(even * 100)}%`, `平均勝率：${Math.round(even * 100)}%`))));
  const line = pts.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  parts.push(s('polygon', { points: `${x(0)},${y(0)} ${line} ${x(n - 1)},${y(0)}`, fill: 'rgba(194, 116, 31, .14)' }));
  parts.push(s('polyline', { class: 'chances', points: line, fill: 'none', stroke: '#9a4d12', 'stroke-width': 2, 'stroke-linejoin': 'round' }));
  pts.forEach((v, i) => {
    const d = i > 0 ? r.decisions[i - 1] : null;
    const tip = d ? `${ROMAN[d.age]}·${d.turn}: ${reviewMove(page, d.played, d.stage)} — ${Math.round(v * 100)}%` : ed(`the start: ${Math.round(v * 100)}%`, `開局：${Math.round(v * 100)}%`);
    parts.push(s('circle', { class: 'point', cx: x(i), cy: y(v), r: 2.5, fill: '#9a4d12' }, s('title', {}, tip)));
  });
  // Each mistake's "−N%" goes where it overlaps no other mistake's marks (its own, its dotted
  // line and the bot's move at the line's top), no Age's name and no earlier label, in this
  // order: right of its mark, left, above on either side (clear of its own dotted line), below,
  // below on either side, higher above on either side (two mistakes a turn apart sit close on a
  // phone's chart).
  const marks = r.mistakes.map(k => ({ cx: x(k + 1), cy: y(r.decisions[k].win_chance) }));
  const others = r.mistakes.map(k => {
    const cx = x(k + 1), top = y(r.decisions[k].best_win_chance), bottom = y(r.decisions[k].win_chance);
    return { dot: { x0: cx - 5, x1: cx + 5, y0: top - 5, y1: top + 5 }, line: { x0: cx - 1.5, x1: cx + 1.5, y0: top, y1: bottom } };
  });
  const placed = [...axisLabels];
  const overlaps = (a, b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
  const labelAt = (m, text) => {
    const { cx, cy } = marks[m];
    const w = 7 * text.length + 2, hh = 12;
    const spots = [
      { x: cx + 10, y: cy + 4, anchor: 'start', box: { x0: cx + 9, x1: cx + 11 + w, y0: cy - 6, y1: cy + 6 } },
      { x: cx - 10, y: cy + 4, anchor: 'end', box: { x0: cx - 11 - w, x1: cx - 9, y0: cy - 6, y1: cy + 6 } },
      { x: cx + 6, y: cy - 13, anchor: 'start', box: { x0: cx + 5, x1: cx + 7 + w, y0: cy - 23, y1: cy - 11 } },
      { x: cx - 6, y: cy - 13, anchor: 'end', box: { x0: cx - 7 - w, x1: cx - 5, y0: cy - 23, y1: cy - 11 } },
      { x: cx, y: cy + 19, anchor: 'middle', box: { x0: cx - w / 2, x1: cx + w / 2, y0: cy + 9, y1: cy + 9 + hh } },
      { x: cx + 6, y: cy + 19, anchor: 'start', box: { x0: cx + 5, x1: cx + 7 + w, y0: cy + 9, y1: cy + 9 + hh } },
      { x: cx - 6, y: cy + 19, anchor: 'end', box: { x0: cx - 7 - w, x1: cx - 5, y0: cy + 9, y1: cy + 9 + hh } },
      { x: cx + 6, y: cy - 27, anchor: 'start', box: { x0: cx + 5, x1: cx + 7 + w, y0: cy - 37, y1: cy - 25 } },
      { x: cx - 6, y: cy - 27, anchor: 'end', box: { x0: cx - 7 - w, x1: cx - 5, y0: cy - 37, y1: cy - 25 } },
    ];
    // A spot's collisions, weighed (outside the chart: many; a label or a mistake's mark
    // hidden: 10 each; a bot's move: 5; a dotted line crossed, which the label's halo keeps
    // readable: 1); the first spot with the least wins.
    const collisions = b => (b.x0 >= 0 && b.x1 <= W && b.y0 >= 0 && b.y1 <= H ? 0 : 999)
      + 10 * placed.filter(p => overlaps(p, b)).length
      + 10 * marks.filter((o, j) => j !== m && overlaps(b, { x0: o.cx - 8, x1: o.cx + 8, y0: o.cy - 8, y1: o.cy + 8 })).length
      + 5 * others.filter((o, j) => j !== m && overlaps(b, o.dot)).length
      + others.filter((o, j) => j !== m && overlaps(b, o.line)).length;
    const spot = spots.reduce((best, p) => (collisions(p.box) < collisions(best.box) ? p : best));
    placed.push(spot.box);
    return spot;
  };
  r.mistakes.forEach((k, m) => {
    const d = r.decisions[k];
    const cx = x(k + 1);
    parts.push(s('line', { x1: cx, x2: cx, y1: y(d.best_win_chance), y2: y(d.win_chance), stroke: '#b8322a', 'stroke-width': 2, 'stroke-dasharray': '2 2' }));
    parts.push(s('circle', { class: 'bot-move', cx, cy: y(d.best_win_chance), r: 3.5, fill: '#fff', stroke: '#b8322a', 'stroke-width': 1.5 },
      s('title', {}, ed(`the bot's move: ${Math.round(d.best_win_chance * 100)}%`, `電腦的首選：${Math.round(d.best_win_chance * 100)}%`))));
    parts.push(s('g', { class: 'mistake', 'data-decision': k },
      s('circle', { cx, cy: y(d.win_chance), r: 7, fill: '#b8322a' }),
      s('text', { x: cx, y: y(d.win_chance) + 3.5, 'text-anchor': 'middle', 'font-size': 10, 'font-weight': 700, fill: '#fff' }, m + 1),
      s('title', {}, `${ROMAN[d.age]}·${d.turn}: −${Math.round(d.loss * 100)}%`)));
    const label = `−${Math.round(d.loss * 100)}%`;
    const at = labelAt(m, label);
    parts.push(s('text', { class: 'mistake-loss', x: at.x, y: at.y, 'text-anchor': at.anchor, 'font-size': 10, 'font-weight': 700,
      fill: '#b8322a', stroke: '#fffcf5', 'stroke-width': 3, 'paint-order': 'stroke' }, label));
  });
  return s('svg', { class: 'chart review-chart', id: 'review-chart', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img',
    'aria-label': ed('Your estimated chance of winning through the game', '整局的估計勝率') }, parts);
}

// The review's chart is drawn for the window's width: drawn again when it changes.
let reviewResize = null;
window.addEventListener('resize', () => {
  clearTimeout(reviewResize);
  // The review's and the score sheet's charts are drawn for the window's width.
  reviewResize = setTimeout(() => {
    if (!current) return;
    const chart = document.getElementById('score-chart');
    const narrow = !!(window.matchMedia && window.matchMedia(NARROW).matches);
    if (current.review || (chart && (chart.viewBox.baseVal.width < 720) !== narrow)) current.render();
  }, 150);
});

// ---------------------------------------------------------------- Edifice
// Self-contained: the lobby option, the projects panel, the stage + take part marks of the
// payment chooser and the log lines of the great projects. Values no printed source confirms are
// marked with a dagger and explained.

function ed(en, zh) { return store.lang === 'zh' ? zh : en; }
TEXT.edifice = ['Edifice', '穹樓'];

function edificeLobbyOption(box) {
  return h('label', { class: 'edifice-option', title: ed(
    'Edifice (2023): great projects built together. Some of its values are provisional (marked †).',
    '穹樓（2023）：共同建造宏偉項目。部分數值為暫定（標記 †）。') },
  box, ' ', catIcon('edifice'), ed('Edifice expansion', '穹樓擴充'));
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

// The three great projects as cards: what taking part costs, the reward, the penalty, and the
// pawns on each (the holders' pawns, then those left to take).
function edificePanel(page) {
  const v = page.state.view;
  const mark = (p, what) => (p.provisional_values.includes(what) ? provisionalMark() : null);
  const outcome = p => (p.outcome === 'open' ? plural(p.pawns_left, 'pawnsLeft')
    : p.outcome === 'completed' ? ed('completed', '已完成') : ed('failed', '失敗'));
  const debts = v.cities.map((c, i) => (c.debt && c.debt.length ? `${page.cityLabel(i)}: ${c.debt.map(a => ROMAN[a]).join(' ')}` : null))
    .filter(x => x);
  const initial = i => [...page.cityLabel(i)][0] || '?';
  return h('section', { class: 'panel projects', id: 'projects' },
    h('h2', {}, ed('Great projects', '宏偉項目')),
    h('div', { class: 'project-list' }, v.projects.map(p => h('div', {
      class: 'project' + (p.current ? ' current' : '') + ' ' + p.outcome, dataset: { age: p.age },
      // Beside the table only the current project is told in full: the others' lines are in
      // their title.
      title: p.current ? null : [ed('Take part: ', '參與：') + edText(p.cost), ed('Reward: ', '獎勵：') + edText(p.reward), ed('Penalty: ', '懲罰：') + edText(p.penalty)].join('\n') },
    h('div', { class: 'project-head' }, h('b', {}, `${ROMAN[p.age]} · ${store.lang === 'zh' && p.zh ? p.zh : p.name}`),
      ' ', h('span', { class: 'tag' }, outcome(p))),
    h('div', { class: 'project-line' }, h('span', { class: 'muted' }, ed('Take part: ', '參與：')), edText(p.cost), mark(p, 'cost')),
    h('div', { class: 'project-line' }, h('span', { class: 'muted' }, ed('Reward: ', '獎勵：')), edText(p.reward), mark(p, 'reward')),
    h('div', { class: 'project-line' }, h('span', { class: 'muted' }, ed('Penalty: ', '懲罰：')), edText(p.penalty), mark(p, 'penalty')),
    h('div', { class: 'pawns', title: ed('Holders: ', '持有者：') + (p.holders.length ? p.holders.map(i => page.cityLabel(i)).join(', ') : '–') },
      p.holders.map(i => h('span', { class: 'pawn-disc held', title: page.cityLabel(i) }, initial(i))),
      Array.from({ length: p.outcome === 'open' ? p.pawns_left : 0 }, () => h('span', { class: 'pawn-disc' }, '')))))),
    debts.length ? h('p', { class: 'muted' }, ed('Debt tokens: ', '負債標記：'), debts.join(' · ')) : null);
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
    v === null ? ROMAN[age] : '−' + v, e && e.debt_provisional[age - 1] ? provisionalMark() : null);
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
    lobbyArt(),
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

// The catalog's card names closest to what was typed (a shared beginning, or few letters apart).
function closestCards(cat, typed) {
  const names = [...new Set(cat.list.map(c => c.name))];
  const a = typed.toLowerCase();
  const dist = (x, y) => {
    const m = x.length; const n = y.length;
    let prev = Array.from({ length: n + 1 }, (_, j) => j);
    for (let i = 1; i <= m; i++) {
      const cur = [i];
      for (let j = 1; j <= n; j++) cur.push(Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1)));
      prev = cur;
    }
    return prev[n];
  };
  return names.map(nm => [nm, nm.toLowerCase().startsWith(a) ? 0 : dist(a, nm.toLowerCase())])
    .filter(([, d]) => d <= Math.max(2, Math.floor(a.length / 3))).sort((x, y) => x[1] - y[1]).slice(0, 3).map(([nm]) => nm);
}

function padSheet(sheet) {
  // Armada's categories are in the answer only when some player scores in them.
  const cats = [...CATS, ...(pad.edifice ? ['edifice'] : []), ...ARMADA_CATS.filter(k => sheet.players.some(l => l[k]))];
  return h('div', { class: 'table-scroll' }, h('table', { class: 'score-sheet', id: 'pad-sheet' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), cats.map(c => h('th', { class: 'cat-' + c, title: t(c) }, catIcon(c), h('span', { class: 'cat-label' }, t(c)))),
      h('th', {}, t('total')), h('th', {}, t('coinsLeft')), h('th', {}, t('rank')))),
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
  const problem = h('span', { class: 'pad-card-problem', role: 'status' });
  // Only a card of the catalog is added: an unknown name is refused at once, with the closest
  // names offered.
  const addCard = () => {
    const v = search.value.trim();
    if (!v) return;
    const d = cat.list.find(c => c.name.toLowerCase() === v.toLowerCase() || c.zh === v);
    if (!d) {
      const close = closestCards(cat, v);
      problem.replaceChildren(h('span', { class: 'error pad-card-error' }, `${t('cardUnknown')}: “${v}”`,
        close.length ? [` — ${t('didYouMean')} `, close.map((n, k) => [k ? ', ' : '', h('button', { type: 'button', class: 'suggest',
          onclick: () => { search.value = n; addCard(); } }, n)]), '?'] : '.'));
      return;
    }
    if (!p.cards.includes(d.name)) p.cards.push(d.name);
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
    h('div', { class: 'pad-line' }, search, h('button', { type: 'button', class: 'pad-add-card', onclick: addCard }, t('add')), problem),
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
    'Team game (4, 6, or 8 players with Armada): seats 1+2, 3+4, 5+6, 7+8 play together; teammates see each other\'s hand; land conflicts only against the adjacent opponent, with double tokens; the team with the highest summed score wins.',
    '團隊遊戲（4、6人，或搭配艦隊的8人）：座位1+2、3+4、5+6、7+8為隊友；隊友可看見彼此的手牌；只與相鄰對手進行地面衝突，標記加倍；總分最高的隊伍獲勝。') },
  box, ' ', ed('Team game', '團隊遊戲'));
}

// The teammate's hand, which teammates may show each other (the team rules).
function teammatePanel(page) {
  const st = page.state;
  const mate = st.you ^ 1;
  return h('section', { class: 'panel teammate', id: 'teammate-hand' },
    h('h2', { title: page.cityLabel(mate) }, ed("Teammate's hand", '隊友的手牌'), ' ', h('small', { class: 'muted' }, page.seatName(mate))),
    h('ul', { class: 'teammate-cards' }, st.view.teammate_hand.map(c => {
      const d = cardDef(page.cat, c, st.view.age);
      return h('li', { class: 'mini c-' + (d ? d.colour : 'grey'), title: d ? fixPlurals(effectText(d)) : c },
        cardGlyph(d), h('span', { class: 'mini-name' }, cardName(page.cat, c, st.view.age)));
    })));
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

// ---------------------------------------------------------------- Armada
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

function armadaLobbyOption(box) {
  return h('label', { class: 'armada-option', title: ed(
    'Armada (2018): shipyards and fleets, naval conflicts, islands, taxes and piracy; 3–8 players (8 only with Armada). Some board costs and card values are provisional (marked †).',
    '艦隊（2018）：船塢與艦隊、海軍衝突、島嶼、稅收與海盜；3–8人（8人僅限艦隊）。部分船塢費用與卡牌數值為暫定（標記 †）。') },
  box, ' ', catIcon('naval'), ed('Armada expansion', '艦隊擴充'));
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
      next && (next.coins || next.resources) ? [' (', costIcons(next.coins || 0, next.resources || ''), next.cost_provisional ? provisionalMark() : null, ')'] : ed(' (free)', '（免費）')]);
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

// One city's shipyard drawn as its board: the four tracks (red: naval strength, yellow: trade,
// taxes and coins, blue: VP, green: explorations), every space with what it gives and what
// moving the ship onto it costs on this board, the ship on its step, the wonder symbol; naval
// strength, trade level, fleet VP, naval tokens and islands. `role` 'compact': the tracks and
// ships only (their values in each space's title).
function armadaCityBlock(page, i, role) {
  const a = page.state.view.armada;
  const c = a && a.cities[i];
  if (!c) return null;
  const data = page.cat && page.cat.armada;
  const board = data ? data.boards.find(b => b.number === c.board) : null;
  const chips = role === 'chips';
  const compact = role === 'compact' || chips;
  const rows = c.ships.map(sh => {
    if (chips) {
      // Many cities at the table: each ship as its fleet's initial and step (its whole track a
      // tap away, on the city).
      const next = sh.next ? ` · ${ed('next', '下一格')}: ${costWords(sh.next)} → ${trackText(sh.next.gives)}` : '';
      return h('span', { class: 'ship-row ship-chip f-' + sh.fleet, dataset: { fleet: sh.fleet, step: sh.step }, title: `${fleetName(sh.fleet)} ${sh.step}/6${next}` },
        h('span', { class: 'fleet-name' }, [...fleetName(sh.fleet)][0].toUpperCase(), sh.wonder ? '★' : ''), ' ', h('span', { class: 'step-num' }, sh.step));
    }
    const track = data ? data.tracks[sh.fleet] : null;
    const costs = board ? board.costs[sh.fleet] : null;
    const spaces = [0, 1, 2, 3, 4, 5, 6].map(k => {
      const gives = track ? track[k] : (k === sh.step + 1 && sh.next ? sh.next.gives : null);
      const cost = k > 0 && costs ? costs[k - 1] : (k === sh.step + 1 && sh.next ? { coins: sh.next.coins, resources: sh.next.resources, provisional: sh.next.cost_provisional } : null);
      const cls = 'space' + (k < sh.step ? ' passed' : k === sh.step ? ' ship' : k === sh.step + 1 ? ' next' : '');
      const title = `${fleetName(sh.fleet)} ${k}/6` + (cost && k > 0 ? ` · ${ed('cost', '費用')}: ${costWords(cost)}` : '') + (gives ? ` · ${trackText(gives)}` : '');
      if (compact) return h('span', { class: cls, title }, k === sh.step ? '●' : '');
      return h('span', { class: cls, title },
        k > 0 && cost ? h('span', { class: 'space-cost' }, cost.coins || cost.resources ? costIcons(cost.coins || 0, cost.resources || '') : ed('free', '免費')) : h('span', { class: 'space-cost muted' }, k === 0 ? ed('start', '起點') : ''),
        h('span', { class: 'space-gives' }, gives ? trackGlyphs(gives) : null, (gives && gives.provisional) || (cost && cost.provisional) ? provisionalMark() : null),
        k === sh.step ? shipMark(sh.fleet) : null);
    });
    return h('div', { class: 'ship-row f-' + sh.fleet, dataset: { fleet: sh.fleet, step: sh.step } },
      h('span', { class: 'fleet-name', title: compact ? fleetName(sh.fleet) : null }, compact ? [...fleetName(sh.fleet)][0].toUpperCase() : fleetName(sh.fleet), sh.wonder ? h('span', { class: 'wonder-mark', title: ed('wonder symbol: building a wonder stage may move this ship', '奇蹟標誌：建造奇蹟階段時可移動此船') }, ' ★') : null),
      h('span', { class: 'track' }, spaces),
      h('span', { class: 'step-num' }, `${sh.step}/6`));
  });
  const tokens = c.naval_tokens.map((v, k) => (v ? h('span', { title: ed(`naval token, Age ${ROMAN[k + 1]}`, `海軍標記，時代${ROMAN[k + 1]}`) }, tokenChip(v)) : null)).filter(Boolean);
  return h('div', { class: 'shipyard' + (role === 'mine' ? ' mine' : '') + (compact ? ' compact' : '') + (chips ? ' chips' : ''), dataset: { city: i },
    title: chips ? ed(`Shipyard ${c.board}`, `船塢 ${c.board}`) + (c.provisional ? ' †' : '') : null },
    h('div', { class: 'shipyard-head' },
      h('b', {}, ed(`Shipyard ${c.board}`, `船塢 ${c.board}`)), c.provisional ? provisionalMark() : null, ' ',
      h('span', { class: 'naval-strength', title: ed('naval strength (red fleet and naval symbols)', '海軍實力（紅色艦隊與海軍標誌）') }, `⚓ ${c.naval_strength}`), ' ',
      h('span', { class: 'trade-level', title: ed('trade level (yellow fleet): lowers the taxes and piracy you pay', '貿易等級（黃色艦隊）：減少你支付的稅與海盜損失') },
        chips ? `⇄ ${c.trade_level}` : ed(`trade ${c.trade_level}`, `貿易 ${c.trade_level}`)), ' ',
      c.fleet_points ? h('span', { class: 'fleet-points', title: ed('fleet points (blue fleet)', '艦隊分數（藍色艦隊）') },
        chips ? ed(`${c.fleet_points} VP`, `${c.fleet_points} 分`) : ed(`fleet ${c.fleet_points} VP`, `艦隊 ${c.fleet_points} 分`)) : null, ' ',
      tokens.length ? h('span', { class: 'naval-tokens', title: ed('naval tokens', '海軍標記') }, compact ? null : h('span', { class: 'naval-label' }, ed('naval: ', '海軍：')), tokens) : null,
      c.islands.length && compact ? h('span', { class: 'island-count', title: c.islands.map(x => `${islandShort(x)} (${x.level}): ${islandEffect(x)}`).join('\n') },
        plural(c.islands.length, 'islandCount')) : null),
    h('div', { class: 'ships' }, rows),
    c.islands.length && !compact ? h('div', { class: 'islands' }, h('span', { class: 'muted' }, ed('Islands: ', '島嶼：')),
      c.islands.map(x => h('span', { class: 'island-chip', title: `${islandName(x)} (${x.level}): ${islandEffect(x)}` },
        islandShort(x), h('span', { class: 'isle-other' }, zh() ? `（${x.name}）` : ` (${x.zh})`), ` (${x.level})`,
        x.provisional ? provisionalMark() : null, h('small', {}, ' · ' + islandEffect(x))))) : null);
}

function islandShort(x) { return zh() ? x.zh : x.name; }

// An island's effect in the page's language.
function islandEffect(x) { return zh() && x.effect_zh ? x.effect_zh : fixPlurals(x.effect); }

function costWords(c) {
  const parts = [];
  if (c.coins) parts.push(coinsText(c.coins));
  if (c.resources) parts.push([...c.resources].map(resName).join(' + '));
  return parts.length ? parts.join(' + ') : ed('free', '免費');
}

// What a track space gives, drawn small: ⚓ naval strength, ⇄ trade level, coins, the tax, VP,
// the exploration's level.
function trackGlyphs(g) {
  const out = [];
  if (g.naval) out.push(h('span', { class: 'tg tg-naval' }, '⚓' + g.naval));
  if (g.trade) out.push(h('span', { class: 'tg tg-trade' }, '⇄' + g.trade));
  if (g.coins) out.push(h('span', { class: 'tg tg-coins' }, '+' + g.coins + '¤'));
  if (g.tax) out.push(h('span', { class: 'tg tg-tax' }, ed('tax', '稅') + g.tax));
  if (g.points) out.push(h('span', { class: 'tg tg-vp' }, g.points + ed('VP', '分')));
  if (g.explore) out.push(h('span', { class: 'tg tg-explore' }, ed('isle ', '島') + ROMAN[g.explore]));
  return out;
}

// The ship on its space: a small hull and sail in its fleet's colour.
function shipMark(fleet) {
  const c = { red: '#b8322a', yellow: '#b08a00', blue: '#2f6db3', green: '#2e7d32' }[fleet] || '#2b2418';
  return s('svg', { class: 'ship-mark', viewBox: '0 0 16 12', width: 16, height: 12, role: 'img', 'aria-label': ed('ship', '船') },
    s('path', { d: 'M1 8 h14 l-2.5 3.5 h-9z', fill: c }), s('path', { d: 'M7.5 0.5 V7.5 H2.5z', fill: c }), s('path', { d: 'M8.5 1.5 V7.5 h4.5z', fill: c, opacity: 0.7 }));
}

function islandName(x) { return zh() ? `${x.zh}（${x.name}）` : `${x.name} (${x.zh})`; }

// The fleets of every city side by side, with the island decks: who leads the naval conflict,
// who taxes and who suffers from pirates.
function armadaPanel(page) {
  const a = page.state.view.armada;
  if (!a) return null;
  // The fleets table is folded at a playing table (every shipyard is drawn on its city).
  const open = page.state.table.status === 'over' || page.state.you === null;
  return h('section', { class: 'panel fleets', id: 'fleets' },
    h('details', { open }, h('summary', {}, h('h2', {}, ed('Fleets', '艦隊'), ' ', h('span', { class: 'muted' }, ed(
      `· island decks ${a.deck_sizes.join(' / ')}`, `· 島嶼牌堆 ${a.deck_sizes.join(' / ')}`)))),
    h('div', { class: 'table-scroll' }, h('table', { class: 'fleet-table' },
      // On a phone the headers shorten (a fleet's initial, its name in the title) and a step
      // drops its "/6", so that the nine columns fit the width.
      h('thead', {}, h('tr', {}, h('th', {}, ''), FLEETS.map(f => h('th', { class: 'f-' + f, title: fleetName(f) },
        h('span', { class: 'wide-only' }, fleetName(f)), h('span', { class: 'narrow-only' }, [...fleetName(f)][0].toUpperCase()))),
        h('th', {}, ed('⚓ naval', '⚓ 海軍')), h('th', {}, ed('trade', '貿易')),
        h('th', { title: ed('islands', '島嶼') }, h('span', { class: 'wide-only' }, ed('islands', '島嶼')), h('span', { class: 'narrow-only' }, ed('isl.', '島'))),
        h('th', {}, ed('tokens', '標記')))),
      h('tbody', {}, a.cities.map((c, i) => h('tr', { class: page.state.you === i ? 'me' : '', dataset: { city: i } },
        h('th', { class: 'who-name', title: page.cityLabel(i) }, page.cityLabel(i)),
        c.ships.map(s => h('td', { class: 'f-' + s.fleet, dataset: { fleet: s.fleet } }, `${s.step}`, h('span', { class: 'wide-only' }, '/6'), s.wonder ? ' ★' : '')),
        h('td', {}, c.naval_strength), h('td', {}, c.trade_level), h('td', {}, c.islands.length),
        h('td', { class: 'fleet-tokens' }, c.naval_tokens.filter(Boolean).map(tokenChip))))))),
    h('p', { class: 'muted fleet-key' }, ed('★ the fleet with the wonder symbol: building a wonder stage may move its ship. ⚓ naval strength decides the naval conflict at each Age end; a tax costs you (tax − your trade level) coins, pirates 1 coin per trade level.',
      '★ 有奇蹟標誌的艦隊：建造奇蹟階段時可移動此船。⚓ 海軍實力決定每個時代結束時的海軍衝突；稅收使你失去（稅額 − 你的貿易等級）錢幣，海盜使你每貿易等級失去 1 錢幣。'))),
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
          x.provisional ? provisionalMark() : null),
        h('div', { class: 'card-effect' }, islandEffect(x)),
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
        due.island.provisional ? provisionalMark() : null),
      h('div', { class: 'card-effect' }, islandEffect(due.island))) : null,
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
