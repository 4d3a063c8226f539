/**
 * Top-level domains that make a bare domain (`app.net`, `telegraph.co.uk`)
 * a link. A compact, offline list: the original generic and sponsored TLDs,
 * a few popular newer generics that are rarely the first word of a sentence
 * (so `done.Today` stays text), and every ISO country code. Words like `e.g`
 * or `index.html` stay text because `g` and `html` are not here.
 */
const GENERIC =
  'com net org edu gov mil int info biz name pro aero asia cat coop jobs mobi museum post tel travel xxx ' +
  'app dev blog shop online site tech store xyz club cloud wiki website space design email digital media ' +
  'agency studio network systems solutions company photography gallery software technology engineering ' +
  'academy university college education restaurant cafe coffee pizza fitness hosting domains directory ' +
  'international london paris berlin nyc tokyo amsterdam moe ninja guru icu vip ltd llc inc community social'

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
