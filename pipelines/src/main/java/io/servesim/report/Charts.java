package io.servesim.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.List;

/**
 * Builders of the page's JSON: a section ({@code id, title, caption, charts, table, files}) and the chart
 * kinds {@code report.js} draws ({@code curves, heatmap, cdf, bars, scatter, timeline}; the field names below are the
 * ones it reads). Public for pages built outside this package (a capacity plan's, {@code io.servesim.plan.PlanReport}).
 */
public final class Charts {
    public static final ObjectMapper JSON = new ObjectMapper();
    /** Most series a chart draws; further axis values are named in the caption. */
    static final int MAX_SERIES = 12;
    /** Table rows rendered at once (sorting reorders all rows). */
    static final int TABLE_PAGE_ROWS = 200;

    private Charts() {
    }

    /** A section with an empty {@code charts} list. */
    public static ObjectNode section(String id, String title, String caption) {
        ObjectNode s = JSON.createObjectNode();
        s.put("id", id).put("title", title).put("caption", caption);
        s.putArray("charts");
        return s;
    }

    /** A chart of {@code kind} with its title and axis names. */
    public static ObjectNode chart(String kind, String title, String xName, String yName) {
        ObjectNode c = JSON.createObjectNode();
        c.put("kind", kind).put("title", title).put("xName", xName).put("yName", yName);
        return c;
    }

    /** A JSON array of strings. */
    public static ArrayNode strings(Collection<String> values) {
        ArrayNode a = JSON.createArrayNode();
        values.forEach(a::add);
        return a;
    }

    /** A JSON array of numbers, null where a value is missing. */
    public static ArrayNode numbers(Double[] values) {
        ArrayNode a = JSON.createArrayNode();
        for (Double v : values) {
            if (v == null) {
                a.addNull();
            } else {
                a.add(v);
            }
        }
        return a;
    }

    /** A JSON array of numbers. */
    public static ArrayNode numbers(double[] values) {
        ArrayNode a = JSON.createArrayNode();
        for (double v : values) {
            a.add(v);
        }
        return a;
    }

    /** A sortable table: {@code text[j]} marks left-aligned label columns; rows hold strings, numbers or null. */
    public static ObjectNode table(List<String> columns, boolean[] text, List<Object[]> rows) {
        ObjectNode t = JSON.createObjectNode();
        t.set("columns", strings(columns));
        ArrayNode kinds = t.putArray("text");
        for (boolean b : text) {
            kinds.add(b);
        }
        ArrayNode body = t.putArray("rows");
        for (Object[] r : rows) {
            ArrayNode row = body.addArray();
            for (Object v : r) {
                Double d = Duck.number(v);
                if (v == null || (v instanceof Number && d == null)) {
                    row.addNull();
                } else if (d != null) {
                    row.add(d);
                } else {
                    row.add(v.toString());
                }
            }
        }
        t.put("pageRows", TABLE_PAGE_ROWS);
        return t;
    }

    /** {@code labels} cut to {@link #MAX_SERIES}, and a caption note when cut. */
    static String cutNote(List<String> labels, String axis) {
        return labels.size() <= MAX_SERIES ? "" : " Only the first " + MAX_SERIES + " of " + labels.size() + " values of "
                + axis + " are drawn.";
    }
}
