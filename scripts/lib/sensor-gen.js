// Seed 000: OBD car-sensor log rows, a timestamp and 40 sensor readings, the shape of the logs the
// seed's author collected with a phone app on an OBD-II adapter (one row per second while driving).
// Shared by the Node CSV writer (fixtures/sensors.js) and by the shell scripts, which can generate
// the same rows themselves when the collection is empty:  load(__dirname + '/lib/sensor-gen.js')
// Needs LabGen.rng from gen.js (load it first in the shell; Node requires it here).
// Plain ES2017, like every file the shell loads.

var SensorGen = (function () {
  var rng = typeof LabGen !== 'undefined' ? LabGen.rng : require('./gen').rng;

  // [name, low, high, decimals, share of blank readings]. The ranges are plausible for a petrol
  // car; the blanks are sensors the adapter did not answer for that second, which the importer
  // stores as a missing field (so statistics must skip documents without the field).
  // Long descriptive names, as the logging app writes them, make documents of ~1.4 kB like the
  // seed's (~1400 bytes with ~40 fields).
  var COLUMNS = [
    ['gps_longitude_degrees', -122.8, -122.4, 6, 0.01],
    ['gps_latitude_degrees', 45.4, 45.6, 6, 0.01],
    ['gps_speed_meters_per_second', 0, 35, 2, 0.01],
    ['gps_horizontal_dilution', 0.5, 5, 1, 0.01],
    ['gps_altitude_meters', 0, 400, 1, 0.01],
    ['gps_bearing_degrees', 0, 360, 1, 0.01],
    ['accelerometer_x_axis_g', -1, 1, 3, 0],
    ['accelerometer_y_axis_g', -1, 1, 3, 0],
    ['accelerometer_z_axis_g', -1, 1, 3, 0],
    ['accelerometer_total_calibrated_g', 0, 1.5, 3, 0],
    ['engine_coolant_temperature_f', 60, 230, 1, 0.02],
    ['engine_rpm', 600, 6500, 1, 0.02],
    ['intake_air_temperature_f', 20, 140, 1, 0.02],
    ['vehicle_speed_obd_mph', 0, 90, 0, 0.02],
    ['throttle_position_manifold_percent', 0, 100, 1, 0.02],
    ['turbo_boost_vacuum_gauge_psi', -14, 15, 2, 0.02],
    ['control_module_voltage_volts', 11.5, 14.8, 2, 0.02],
    ['mass_air_flow_rate_grams_per_second', 1, 200, 2, 0.02],
    ['fuel_flow_rate_per_hour_gallons', 0, 8, 3, 0.02],
    ['fuel_flow_rate_per_minute_cc', 0, 500, 2, 0.02],
    ['trip_distance_miles', 0, 300, 2, 0],
    ['trip_time_since_journey_start_s', 0, 20000, 0, 0],
    ['trip_time_stationary_seconds', 0, 5000, 0, 0],
    ['trip_time_moving_seconds', 0, 15000, 0, 0],
    ['average_trip_speed_moving_mph', 0, 80, 1, 0],
    ['kilometers_per_litre_instant_kpl', 0, 40, 2, 0.05],
    ['kilometers_per_litre_long_term_kpl', 5, 25, 2, 0.05],
    ['miles_per_gallon_instant_mpg', 0, 99, 2, 0.05],
    ['miles_per_gallon_long_term_average', 10, 60, 2, 0.05],
    ['engine_load_calculated_percent', 0, 100, 1, 0.02],
    ['engine_load_absolute_percent', 0, 100, 1, 0.02],
    ['fuel_trim_bank_1_short_term_percent', -25, 25, 2, 0.03],
    ['fuel_trim_bank_1_long_term_percent', -25, 25, 2, 0.03],
    ['o2_sensor_bank_1_sensor_1_voltage', 0, 1.275, 3, 0.03],
    ['o2_sensor_bank_1_sensor_2_voltage', 0, 1.275, 3, 0.03],
    ['timing_advance_degrees_before_tdc', -10, 50, 1, 0.02],
    ['barometric_pressure_from_vehicle_psi', 13, 15, 2, 0.02],
    ['ambient_air_temperature_f', 0, 110, 1, 0.05],
    ['catalyst_temperature_bank_1_s1_f', 300, 1600, 1, 0.05],
    ['horsepower_at_the_wheels_hp', 0, 250, 1, 0.05],
  ];

  // 1 Hz from 2015-01-01T00:00:00Z: the seed's logs are one row per second of driving.
  var START = Date.UTC(2015, 0, 1);

  function names() {
    return COLUMNS.map(function (c) { return c[0]; });
  }

  // Row i as [timestamp (ms), value or null per column], drawn in column order: the same seed and
  // the same i give the same row in Node and in the shell.
  function row(next, i) {
    var values = new Array(COLUMNS.length);
    for (var c = 0; c < COLUMNS.length; c++) {
      var col = COLUMNS[c];
      var blank = next() < col[4];
      var x = col[1] + (col[2] - col[1]) * next();
      var scale = Math.pow(10, col[3]);
      // Rounded to the column's decimals, so the CSV text ("1234.5") parses back to the very same
      // double and a Node computation over the file equals one over the imported documents
      // (+ 0 turns the -0 that rounding a small negative gives into 0, which is what "0" reads back as).
      values[c] = blank ? null : Math.round(x * scale) / scale + 0;
    }
    return { t: START + i * 1000, values: values };
  }

  // The document the CSV importer stores for that row (blank readings left out), with the _id a
  // shell-generated collection uses: the row number.
  function doc(next, i) {
    var r = row(next, i);
    var d = { _id: i, timestamp: new Date(r.t) };
    for (var c = 0; c < COLUMNS.length; c++) {
      if (r.values[c] !== null) d[COLUMNS[c][0]] = r.values[c];
    }
    return d;
  }

  return { COLUMNS: COLUMNS, START: START, names: names, row: row, doc: doc, rng: rng };
})();

if (typeof module !== 'undefined' && module.exports) module.exports = SensorGen;
