/**
 * Top-level domains that make a bare domain (`app.net`, `telegraph.co.uk`)
 * a link. A compact, offline list: the generic and sponsored TLDs people
 * actually write, the popular newer generics, and every ISO country code.
 * Words like `e.g` or `index.html` stay text because `g` and `html` are not here.
 */
const GENERIC =
  'com net org edu gov mil int info biz name pro aero asia cat coop jobs mobi museum post tel travel xxx ' +
  'app dev blog shop online site tech store xyz club top live news art design cloud page wiki space website ' +
  'link email digital media social agency studio network systems solutions company center works zone world ' +
  'today life love photo photos photography pics gallery video music radio tv fm games game fun cafe coffee ' +
  'bar pub restaurant pizza wine beer book books academy school university college education ' +
  'health care fitness green eco earth city town london paris berlin nyc tokyo amsterdam ' +
  'moe ninja guru rocks expert tips tools codes software computer technology engineering science ' +
  'one run win icu vip ltd llc inc group team family church events party social chat community ' +
  'mail press blog host hosting domains directory global international ' +
  'google apple amazon microsoft'

const COUNTRY =
  'ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bm bn bo br bs bt bw by bz ' +
  'ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg er es et eu fi fj fk ' +
  'fm fo fr ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in io iq ' +
  'ir is it je jm jo jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mg mh ' +
  'mk ml mm mn mo mp mq mr ms mt mu mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk ' +
  'pl pm pn pr ps pt pw py qa re ro rs ru rw sa sb sc sd se sg sh si sk sl sm sn so sr ss st su sv sx sy sz ' +
  'tc td tf tg th tj tk tl tm tn to tr tt tv tw tz ua ug uk us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw'

const TLDS: ReadonlySet<string> = new Set(`${GENERIC} ${COUNTRY}`.split(/\s+/))

/** True when `label` (any case) is a real top-level domain. */
export const isTld = (label: string): boolean => TLDS.has(label.toLowerCase())
