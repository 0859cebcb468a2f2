// Seeded MOT-like test records for study 001's second half (John Page, "How Wired Tiger opens up
// the option of MongoDB for Big Data Analytics", 2015; code github johnlpage/BigAggBlog).
// Shared by the shell (load(__dirname + '/lib/gen.js'); load(__dirname + '/lib/mot-gen.js')) and
// Node (require), so a script that generates its own data and the Node loader make the same
// documents for the same seed. Plain ES2017.
//
// Fields: the seed's loader (fastload.c) maps the 14 columns of the 2005-2013 anonymised MOT
// test_result files to one-letter names:
//   t test id (int)      v vehicle id (int)     d test date (date)   c test class (int)
//   y test type (str)    r result (str)         m test mileage (int) s postcode area (str)
//   k make (str)         o model (str)          u colour (str)       f fuel type (str)
//   e engine capacity, cc (int)               i first-use date (date; absent when unknown)
// The published loader names the engine column `d` a second time (resultfields[12] = "d"), while
// the published pipeline reads `$e`: on data loaded by it every car would fall in band 1. We name
// it `e`, as the pipeline expects. _id is the record number i (the seed used a 64-bit
// chunk<<32 + line number; both are increasing with load order, which is what range splits need).
//
// Distributions: plausible for Great Britain 2005-2013, chosen by hand, NOT fitted to the real
// files (which the lab cannot download). Documented in docs/studies/bigagg.md:
//   test date   uniform day over 2005-01-01 .. 2013-12-31 (the seed's files cover those years)
//   class       4 cars and light vans 92.5 %, 2 motorcycles 3.5 %, 7 goods 3-3.5 t 2.5 %,
//               1 small motorcycles, 3 three-wheelers, 5 minibuses 0.5 % each
//   age         3 years (first MOT) + 3 x (sum of two exponentials): mean ~9 years, capped at 40;
//               first-use date = test date - age (0.3 % unknown: the loader skipped NULL dates)
//   fuel        cars: petrol 63 %, diesel 35 %, LPG 0.7 %, hybrid 0.5 %, electric 0.3 %,
//               other 0.5 %; motorcycles petrol
//   engine (cc) a weighted table per fuel of common engine sizes, including a few exactly on the
//               band boundaries (1000, 1200, 1600, 2000, 2500, 3500) so the `$gt` edges are
//               exercised; electric 0
//   mileage     age x annual miles, annual = 7,900 x lognormal(sigma 0.45), diesel x1.35,
//               motorcycles x0.4
//   result      P 62 %, F 29 %, PRS (pass after rectification) 7 %, ABR (abandoned) 2 %
//   test type   N normal 86 %, R retest 12 %, P partial retest 2 %
//   make/model  15 car makes with 2-5 models each (weighted), 5 motorcycle makes
//   colour      12 colours, silver and blue most common
//   postcode    the 121 postcode areas of Great Britain, uniform
// Records are ~150 bytes of BSON, like the seed's ~153 B (88.9 GB / 580.65 M).

var LabMot = (function (G) {
  var DAY = 86400000;
  var T0 = Date.UTC(2005, 0, 1);
  var TEST_DAYS = Math.round((Date.UTC(2014, 0, 1) - T0) / DAY);

  // [value, weight] pairs -> a sampler using one uniform draw
  function table(pairs) {
    var total = 0;
    var cum = [];
    var vals = [];
    for (var j = 0; j < pairs.length; j++) {
      total += pairs[j][1];
      cum.push(total);
      vals.push(pairs[j][0]);
    }
    for (var q = 0; q < cum.length; q++) cum[q] /= total;
    return function (u) {
      var lo = 0;
      var hi = cum.length - 1;
      while (lo < hi) {
        var mid = (lo + hi) >> 1;
        if (u < cum[mid]) hi = mid; else lo = mid + 1;
      }
      return vals[lo];
    };
  }

  var CLASS = table([[4, 92.5], [2, 3.5], [7, 2.5], [1, 0.5], [3, 0.5], [5, 0.5]]);
  var FUEL = table([['P', 63], ['D', 35], ['L', 0.7], ['H', 0.5], ['E', 0.3], ['O', 0.5]]);
  var PETROL_CC = table([[998, 4], [999, 2], [1000, 1], [1108, 3], [1124, 2], [1198, 4], [1199, 1], [1200, 1],
    [1242, 4], [1298, 3], [1360, 3], [1390, 4], [1398, 4], [1499, 2], [1587, 3], [1596, 5], [1598, 5], [1600, 2],
    [1796, 6], [1798, 3], [1984, 4], [1995, 3], [1997, 3], [2000, 1], [2198, 2], [2295, 1], [2498, 2], [2500, 0.5],
    [2979, 1], [2996, 1], [3198, 0.5], [3498, 0.5], [3500, 0.2], [3996, 0.3], [4395, 0.2], [4999, 0.1], [5998, 0.05]]);
  var DIESEL_CC = table([[799, 0.3], [1120, 0.5], [1199, 0.3], [1248, 3], [1398, 3], [1461, 4], [1560, 5], [1598, 3],
    [1600, 0.5], [1686, 2], [1753, 2], [1896, 8], [1968, 6], [1995, 4], [1997, 2], [2000, 1], [2143, 3], [2179, 2],
    [2198, 3], [2402, 3], [2494, 2], [2496, 1], [2500, 0.5], [2987, 1], [2993, 1], [3000, 0.5], [3498, 0.2],
    [3500, 0.2], [3996, 0.2]]);
  var MOTO_CC = table([[49, 1], [125, 5], [250, 2], [400, 1], [599, 3], [650, 2], [750, 2], [998, 2], [1200, 1], [1800, 0.2]]);
  var RESULT = table([['P', 62], ['F', 29], ['PRS', 7], ['ABR', 2]]);
  var TYPE = table([['N', 86], ['R', 12], ['P', 2]]);
  var COLOUR = table([['SILVER', 22], ['BLUE', 17], ['BLACK', 13], ['RED', 12], ['GREY', 9], ['WHITE', 7],
    ['GREEN', 6], ['GOLD', 3], ['PURPLE', 3], ['YELLOW', 2], ['BEIGE', 3], ['ORANGE', 3]]);
  var CAR = table([
    [['FORD', ['FOCUS', 'FIESTA', 'MONDEO', 'KA', 'TRANSIT']], 16], [['VAUXHALL', ['ASTRA', 'CORSA', 'VECTRA', 'ZAFIRA']], 13],
    [['VOLKSWAGEN', ['GOLF', 'POLO', 'PASSAT']], 8], [['PEUGEOT', ['206', '307', '406']], 7], [['RENAULT', ['CLIO', 'MEGANE', 'SCENIC']], 7],
    [['TOYOTA', ['YARIS', 'COROLLA', 'AVENSIS']], 6], [['BMW', ['3 SERIES', '5 SERIES', '1 SERIES']], 5], [['NISSAN', ['MICRA', 'ALMERA', 'PRIMERA']], 5],
    [['CITROEN', ['SAXO', 'XSARA', 'C3']], 5], [['HONDA', ['CIVIC', 'JAZZ', 'ACCORD']], 4], [['MERCEDES-BENZ', ['C CLASS', 'E CLASS', 'A CLASS']], 4],
    [['AUDI', ['A3', 'A4', 'A6']], 4], [['ROVER', ['25', '45', '75']], 3], [['FIAT', ['PUNTO', 'PANDA']], 3], [['MINI', ['MINI']], 2]]);
  var MOTO = table([[['HONDA', ['CBR600', 'CG125', 'CB500']], 4], [['YAMAHA', ['YBR125', 'R1', 'FAZER']], 3],
    [['SUZUKI', ['GSX-R750', 'SV650']], 2], [['KAWASAKI', ['ZX-6R', 'ER-6']], 2], [['TRIUMPH', ['BONNEVILLE', 'STREET TRIPLE']], 1]]);
  var AREAS = ('AB AL B BA BB BD BH BL BN BR BS BT CA CB CF CH CM CO CR CT CV CW DA DD DE DG DH DL DN DT DY ' +
    'E EC EH EN EX FK FY G GL GU HA HD HG HP HR HS HU HX IG IP IV KA KT KW KY L LA LD LE LL LN LS LU M ME MK ML ' +
    'N NE NG NN NP NR NW OL OX PA PE PH PL PO PR RG RH RM S SA SE SG SK SL SM SN SO SP SR SS ST SW SY TA TD TF ' +
    'TN TQ TR TS TW UB W WA WC WD WF WN WR WS WV YO ZE').split(' ');

  // One MOT test record. `next` is a LabGen.rng stream; draws are made in a fixed order, so the
  // same seed gives the same documents in the shell and in Node.
  function doc(next, i) {
    var testDay = Math.floor(next() * TEST_DAYS);
    var testMs = T0 + testDay * DAY;
    var cls = CLASS(next());
    var moto = cls === 1 || cls === 2;
    var fuel = moto ? 'P' : FUEL(next());
    var cc;
    if (moto) cc = MOTO_CC(next());
    else if (fuel === 'D') cc = DIESEL_CC(next());
    else if (fuel === 'E') { next(); cc = 0; } else cc = PETROL_CC(next());
    var ageYears = Math.min(40, 3 + 3 * (-Math.log(1 - next()) - Math.log(1 - next())));
    var firstUse = testMs - Math.round(ageYears * 365.25) * DAY;
    // Box-Muller from two draws: annual mileage is log-normal around 7,900
    var u1 = next();
    var u2 = next();
    var z = Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
    var annual = 7900 * Math.exp(0.45 * z) * (fuel === 'D' ? 1.35 : 1) * (moto ? 0.4 : 1);
    var mk = (moto ? MOTO : CAR)(next());
    var model = mk[1][Math.floor(next() * mk[1].length)];
    var d = {
      _id: i,
      t: 1000000 + i,
      v: Math.floor(next() * 200000000),
      d: new Date(testMs),
      c: cls,
      y: TYPE(next()),
      r: RESULT(next()),
      m: Math.round(ageYears * annual),
      s: AREAS[Math.floor(next() * AREAS.length)],
      k: mk[0],
      o: model,
      u: COLOUR(next()),
      f: fuel,
      e: cc,
    };
    if (next() >= 0.003) d.i = new Date(firstUse);
    return d;
  }

  // The seed's band for one record, as its nested $cond computes it (strictly greater than each
  // threshold; a record without a numeric e compares as below every threshold: band 1), times 1.5
  // for diesel. Diesel 2 x 1.5 = 3 and diesel 4 x 1.5 = 6 share a key with petrol bands 3 and 6.
  function band(rec) {
    var e = rec.e;
    var b;
    if (typeof e !== 'number' || !(e > 1000)) b = 1;
    else if (!(e > 1200)) b = 2;
    else if (!(e > 1600)) b = 3;
    else if (!(e > 2000)) b = 4;
    else if (!(e > 2500)) b = 5;
    else if (!(e > 3500)) b = 6;
    else b = 7;
    return b * (rec.f === 'D' ? 1.5 : 1);
  }

  return { doc: doc, band: band, AREAS: AREAS, T0: T0, TEST_DAYS: TEST_DAYS };
})(typeof LabGen !== 'undefined' ? LabGen : require('./gen.js'));

if (typeof module !== 'undefined' && module.exports) module.exports = LabMot;
