// servesim report: draws the sections of the JSON in #report-data with ECharts (SVG renderer) and, when every
// chart has finished, writes a status object into #report-status that the browser test reads:
// {done, charts, renderMs (this script), sinceNavigationMs (page open to drawn), errors,
// chartMarks: [{id, kind, expected, drawn, svgElements}]}.
// Chart kinds (built in Java by io.servesim.report.Charts): curves, heatmap, cdf, bars, scatter, timeline.
(function () {
  'use strict';
  var t0 = performance.now();
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var root = document.getElementById('report');
  var charts = [];
  var PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7',
    '#9c755f', '#bab0ac', '#1b9e77', '#7570b3'];

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function fmt(v) {
    if (v === null || v === undefined) return '-';
    if (typeof v !== 'number') return String(v);
    if (Number.isInteger(v)) return String(v);
    var a = Math.abs(v);
    return a >= 100 ? v.toFixed(1) : a >= 1 ? v.toFixed(2) : v.toFixed(3);
  }

  function legendEntries(c) {
    var names = (c.series || []).map(function (s) { return s.name; });
    return names.filter(function (n, k) { return names.indexOf(n) === k; }).length;
  }

  function base(c) {
    return {
      animation: false,
      color: PALETTE,
      title: {text: c.title, left: 'center', textStyle: {fontSize: 13}},
      tooltip: {trigger: c.kind === 'heatmap' || c.kind === 'scatter' ? 'item' : 'axis', valueFormatter: fmt},
      legend: {type: legendEntries(c) <= 6 ? 'plain' : 'scroll', bottom: 0, itemWidth: 16, itemGap: 6, textStyle: {fontSize: 10}},
      grid: {left: 64, right: 20, top: 36, bottom: 62}
    };
  }

  function curves(c) {
    var o = base(c);
    o.xAxis = {type: 'category', name: c.xName, nameLocation: 'middle', nameGap: 24, data: c.xLabels, boundaryGap: false};
    o.yAxis = {type: 'value', name: c.yName, nameTextStyle: {align: 'left'}, scale: true};
    o.series = [];
    // one legend entry per colour (both lines of a value, e.g. p50 and p99, toggle together); the tooltip names the line's
    // variant (p50, p99, mean; prefill, decode)
    o.legend.data = c.series.map(function (s) { return s.name; }).filter(function (n, k, all) { return all.indexOf(n) === k; });
    o.tooltip.formatter = function (params) {
      return params.filter(function (p) { return !o.series[p.seriesIndex].band && p.value !== null; }).map(function (p) {
        return p.marker + o.series[p.seriesIndex].fullName + ': ' + fmt(p.value);
      }).join('<br>');
    };
    c.series.forEach(function (s, i) {
      var color = PALETTE[s.colorIndex % PALETTE.length];
      var stack = 'band' + i;
      o.series.push({type: 'line', name: s.name, fullName: s.name + (s.variant ? ' ' + s.variant : ''), data: s.y,
        symbol: 'circle', symbolSize: 5, showAllSymbol: true,
        lineStyle: {color: color, type: s.dashed ? 'dashed' : 'solid'}, itemStyle: {color: color}, connectNulls: false});
      if (s.lo) {
        o.series.push({type: 'line', name: s.name, data: s.lo, stack: stack, symbol: 'none', lineStyle: {opacity: 0},
          tooltip: {show: false}, silent: true, band: true});
        o.series.push({type: 'line', name: s.name, data: s.hi.map(function (h, k) {
            return h === null || s.lo[k] === null ? null : h - s.lo[k];
          }), stack: stack, symbol: 'none', lineStyle: {opacity: 0}, areaStyle: {color: color, opacity: 0.15},
          tooltip: {show: false}, silent: true, band: true});
      }
    });
    return o;
  }

  function heatmap(c) {
    var o = base(c);
    o.grid.bottom = 80;
    o.legend = undefined;
    o.xAxis = {type: 'category', name: c.xName, nameLocation: 'middle', nameGap: 24, data: c.xLabels,
      axisLabel: {interval: c.xLabels.length <= 12 ? 0 : 'auto', fontSize: 10}};
    o.yAxis = {type: 'category', name: c.yName, data: c.yLabels, axisLabel: {interval: c.yLabels.length <= 16 ? 0 : 'auto'}};
    o.visualMap = {min: c.min, max: c.max, calculable: false, orient: 'horizontal', left: 'center', bottom: 0,
      itemHeight: 120, itemWidth: 10, text: [fmt(c.max), fmt(c.min)], inRange: {color: c.colors}};
    o.series = [{type: 'heatmap', name: c.valueName, data: c.cells,
      label: {show: c.cells.length <= 80, fontSize: 10, formatter: function (p) { return fmt(p.value[2]); }}}];
    return o;
  }

  function cdf(c) {
    var o = base(c);
    o.xAxis = {type: c.logX ? 'log' : 'value', name: c.xName, nameLocation: 'middle', nameGap: 24, scale: true};
    o.yAxis = {type: 'value', name: 'fraction', min: 0, max: 1};
    o.tooltip.trigger = 'item';
    o.series = c.series.map(function (s) {
      return {type: 'line', name: s.name, data: s.x.map(function (x, k) { return [x, s.p[k]]; }),
        symbol: 'circle', symbolSize: 3, showAllSymbol: true, step: 'end', lineStyle: {width: 1.5}};
    });
    return o;
  }

  // step lines over a numeric x: each point holds its value until the next (replica counts over time)
  function timeline(c) {
    var o = base(c);
    o.xAxis = {type: 'value', name: c.xName, nameLocation: 'middle', nameGap: 24, min: 0};
    o.yAxis = {type: 'value', name: c.yName, minInterval: 1};
    o.tooltip.trigger = 'item';
    o.series = c.series.map(function (s) {
      return {type: 'line', name: s.name, data: s.x.map(function (x, k) { return [x, s.y[k]]; }),
        symbol: 'circle', symbolSize: 3, showAllSymbol: true, step: 'end', lineStyle: {width: 1.5}};
    });
    return o;
  }

  function bars(c) {
    var o = base(c);
    o.xAxis = {type: 'category', name: c.xName, nameLocation: 'middle', nameGap: 24, data: c.categories};
    o.yAxis = {type: 'value', name: c.yName};
    o.series = c.series.map(function (s) { return {type: 'bar', name: s.name, data: s.y}; });
    return o;
  }

  function scatter(c) {
    var o = base(c);
    var lo = Infinity, hi = -Infinity;
    c.series.forEach(function (s) {
      s.points.forEach(function (p) { lo = Math.min(lo, p[0], p[1]); hi = Math.max(hi, p[0], p[1]); });
    });
    o.xAxis = {type: 'value', name: c.xName, nameLocation: 'middle', nameGap: 24, scale: true};
    o.yAxis = {type: 'value', name: c.yName, scale: true};
    if (c.xMin !== undefined) o.xAxis.min = c.xMin;
    if (c.yMin !== undefined) o.yAxis.min = c.yMin;
    // a series with line: true joins its points in order (a frontier), its points still drawn and counted
    o.series = c.series.map(function (s) {
      return s.line ? {type: 'line', name: s.name, data: s.points, symbol: 'circle', symbolSize: 7, showAllSymbol: true,
        step: s.step || false, z: 3}
        : {type: 'scatter', name: s.name, data: s.points, symbolSize: s.symbolSize || 6, z: s.z || 2};
    });
    o.legend.data = c.series.map(function (s) { return s.name; });
    if (c.diagonal && isFinite(lo)) {
      o.series.push({type: 'line', name: 'y = x', data: [[lo, lo], [hi, hi]], symbol: 'none', silent: true, band: true,
        lineStyle: {color: '#999', type: 'dotted'}, tooltip: {show: false}});
    }
    // a horizontal guide (a target), not a mark: hline {value, name}
    if (c.hline) {
      o.series.push({type: 'line', name: c.hline.name, data: [], symbol: 'none', silent: true, band: true,
        markLine: {silent: true, symbol: 'none', label: {formatter: c.hline.name, position: 'insideEndTop'},
          lineStyle: {color: '#999', type: 'dashed'}, data: [{yAxis: c.hline.value}]}});
    }
    return o;
  }

  var KINDS = {curves: curves, heatmap: heatmap, cdf: cdf, bars: bars, scatter: scatter, timeline: timeline};

  function expectedMarks(c) {
    switch (c.kind) {
      case 'curves': return c.series.reduce(function (n, s) { return n + s.y.filter(function (v) { return v !== null; }).length; }, 0);
      case 'heatmap': return c.cells.length;
      case 'cdf': return c.series.reduce(function (n, s) { return n + s.x.length; }, 0);
      case 'bars': return c.series.reduce(function (n, s) { return n + s.y.filter(function (v) { return v !== null; }).length; }, 0);
      case 'scatter': return c.series.reduce(function (n, s) { return n + s.points.length; }, 0);
      case 'timeline': return c.series.reduce(function (n, s) { return n + s.x.length; }, 0);
      default: throw new Error('unknown chart kind ' + c.kind);
    }
  }

  // Marks drawn: data items that own a graphic element, over every series that is not a band or guide line.
  function drawnMarks(chart, option) {
    var n = 0;
    option.series.forEach(function (s, i) {
      if (s.band) return;
      var d = chart.getModel().getSeriesByIndex(i).getData();
      for (var k = 0; k < d.count(); k++) {
        if (d.getItemGraphicEl(k)) n++;
      }
    });
    return n;
  }

  function drawChart(parent, c, id) {
    var div = el('div', 'chart' + (c.wide ? ' wide' : ''));
    div.id = id;
    parent.appendChild(div);
    var option = KINDS[c.kind](c);
    var chart = echarts.init(div, null, {renderer: 'svg'});
    chart.setOption(option);
    charts.push({id: id, kind: c.kind, chart: chart, option: option, expected: expectedMarks(c), div: div});
  }

  function drawTable(parent, t) {
    var wrap = el('div', 'tablewrap');
    var table = el('table');
    var thead = el('thead'), tbody = el('tbody'), hr = el('tr');
    var note = el('p', 'note');
    var rows = t.rows.slice();
    var sortCol = -1, asc = true;
    t.columns.forEach(function (name, j) {
      var th = el('th', t.text[j] ? 'text' : '', name);
      th.addEventListener('click', function () {
        asc = sortCol === j ? !asc : true;
        sortCol = j;
        rows.sort(function (a, b) {
          var x = a[j], y = b[j];
          if (x === y) return 0;
          if (x === null) return 1;
          if (y === null) return -1;
          return (x < y ? -1 : 1) * (asc ? 1 : -1);
        });
        Array.prototype.forEach.call(hr.children, function (h) { h.className = h.className.replace(/ ?sorted-\w+/, ''); });
        th.className += (asc ? ' sorted-asc' : ' sorted-desc');
        fill();
      });
      hr.appendChild(th);
    });
    function fill() {
      tbody.textContent = '';
      var shown = Math.min(rows.length, t.pageRows);
      for (var i = 0; i < shown; i++) {
        var tr = el('tr');
        rows[i].forEach(function (v, j) { tr.appendChild(el('td', t.text[j] ? 'text' : '', t.text[j] ? v : fmt(v))); });
        tbody.appendChild(tr);
      }
      note.textContent = shown < rows.length ? 'showing the first ' + shown + ' of ' + rows.length
        + ' rows in the current order (click a heading to sort all rows)' : rows.length + ' rows; click a heading to sort';
    }
    thead.appendChild(hr);
    table.appendChild(thead);
    table.appendChild(tbody);
    wrap.appendChild(table);
    parent.appendChild(wrap);
    parent.appendChild(note);
    fill();
  }

  function drawAll() {
    document.getElementById('meta').textContent = data.meta;
    data.sections.forEach(function (s) {
      var sec = el('section');
      sec.id = s.id;
      sec.appendChild(el('h2', '', s.title));
      if (s.caption) sec.appendChild(el('p', 'caption', s.caption));
      if (s.charts && s.charts.length) {
        var box = el('div', 'charts');
        sec.appendChild(box);
        root.appendChild(sec);
        s.charts.forEach(function (c, ci) { drawChart(box, c, s.id + '-' + ci); });
      } else {
        root.appendChild(sec);
      }
      if (s.table) drawTable(sec, s.table);
      (s.files || []).forEach(function (f) {
        var d = el('details');
        d.appendChild(el('summary', '', f.name));
        d.appendChild(el('pre', 'file', f.text));
        sec.appendChild(d);
      });
    });
  }

  try {
    drawAll();
    charts.forEach(function (c) { c.chart.getZr().flush(); });
  } catch (e) {
    window.__reportErrors.push(String(e && e.stack || e));
    console.error(e);
  }
  var status = document.getElementById('report-status');
  status.textContent = JSON.stringify({
    done: true,
    charts: charts.length,
    renderMs: Math.round(performance.now() - t0),
    sinceNavigationMs: Math.round(performance.now()),
    errors: window.__reportErrors,
    chartMarks: charts.map(function (c) {
      return {id: c.id, kind: c.kind, expected: c.expected, drawn: drawnMarks(c.chart, c.option),
        svgElements: c.div.querySelectorAll('svg path, svg rect, svg circle').length};
    })
  });
})();
