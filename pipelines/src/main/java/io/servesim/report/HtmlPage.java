package io.servesim.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * The self-contained page: {@code page.html} with the styles, the data (JSON), ECharts and {@code report.js}
 * inlined, so it opens offline and can be mailed. ECharts' minified script is read from the
 * {@code org.webjars:echarts} jar on the classpath (the version its {@code pom.properties} names). The page
 * references no URL.
 */
final class HtmlPage {
    private static final String WEBJAR = "META-INF/maven/org.webjars/echarts/pom.properties";

    private HtmlPage() {
    }

    /** The page titled {@code title} drawing {@code data} ({@code meta} and {@code sections}). */
    static String render(String title, JsonNode data) {
        String page = resource("io/servesim/report/page.html");
        String json;
        try {
            json = Charts.JSON.writeValueAsString(data);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("report data is not serialisable", e);
        }
        // inside <script> only "</" can end the element early; JSON allows "<\/" for it
        json = json.replace("</", "<\\/");
        return page.replace("{{TITLE}}", escape(title))
                .replace("{{CSS}}", resource("io/servesim/report/report.css"))
                .replace("{{ECHARTS}}", echarts().replace("</script", "<\\/script"))
                .replace("{{JS}}", resource("io/servesim/report/report.js"))
                .replace("{{DATA}}", json);
    }

    /** ECharts' minified build from the WebJar. */
    static String echarts() {
        Properties p = new Properties();
        try (InputStream in = stream(WEBJAR)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return resource("META-INF/resources/webjars/echarts/" + p.getProperty("version") + "/echarts.min.js");
    }

    private static String resource(String name) {
        try (InputStream in = stream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InputStream stream(String name) {
        InputStream in = HtmlPage.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException("missing resource " + name + " (is org.webjars:echarts on the classpath?)");
        }
        return in;
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
