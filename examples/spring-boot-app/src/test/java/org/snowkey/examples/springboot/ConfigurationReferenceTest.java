package org.snowkey.examples.springboot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.apache.shardingsphere.infra.spi.type.typed.TypedSPILoader;
import org.junit.jupiter.api.Test;

/**
 * The configuration reference (docs/configuration.md) and the Spring Boot property table (docs/spring-boot.md) name
 * every setting the code knows, and no other. Asked the way a user meets it: the props each key generator type accepts
 * are the ones it lists when ShardingSphere creates it with an unknown prop, with both lease stores on the class path
 * (the starter brings them); the {@code snowkey.*} properties are the ones in the starter's configuration metadata.
 */
class ConfigurationReferenceTest {

    /** Tests run in the module's directory: examples/<module>. */
    private static final Path DOCS = Path.of("../../docs");

    private static final Pattern KNOWN = Pattern.compile("known properties are \\[([^\\]]*)\\]");

    private static final Pattern PROP_ROW = Pattern.compile("^\\| `([a-z][a-z-]*)` \\|", Pattern.MULTILINE);

    private static final Pattern SPRING_NAME = Pattern.compile("`(snowkey\\.[a-z.-]+)`");

    @Test
    void theReferenceListsEveryPropOfImprovedSnowflakeAndNoOther() throws IOException {
        String reference = section(read("configuration.md"), "## Configuration reference", "### Segment keys");
        assertThat(propsIn(reference)).isEqualTo(knownProps("IMPROVED_SNOWFLAKE"));
    }

    @Test
    void theReferenceListsEveryPropOfSnowKeySegmentAndNoOther() throws IOException {
        String text = read("configuration.md");
        Set<String> documented = propsIn(section(text, "### Segment keys", "## The id"));
        // "The allocator's own props are those of the tables above (jdbc-*, zookeeper-*)".
        propsIn(section(text, "### ZooKeeper", "### Segment keys")).forEach(documented::add);
        assertThat(documented).isEqualTo(knownProps("SNOWKEY_SEGMENT"));
    }

    @Test
    void theSpringBootTableListsEverySnowKeyPropertyAndNoOther() throws IOException {
        Set<String> documented = new TreeSet<>();
        for (String row : read("spring-boot.md").split("\n")) {
            if (!row.startsWith("| `snowkey.")) {
                continue;
            }
            String cell = row.split("\\|")[1];
            Matcher name = SPRING_NAME.matcher(cell);
            String first = null;
            while (name.find()) {
                documented.add(name.group(1));
                first = first == null ? name.group(1) : first;
            }
            // "`snowkey.segment.jdbc.url` / `.username` / `.password`": the others share the first one's parent.
            Matcher shortName = Pattern.compile("`\\.([a-z-]+)`").matcher(cell);
            while (shortName.find()) {
                documented.add(first.substring(0, first.lastIndexOf('.') + 1) + shortName.group(1));
            }
        }
        assertThat(documented).isEqualTo(springProperties());
    }

    @Test
    void theReadmesSmallestYamlOfEachTypeIsAcceptedAsWritten() throws IOException {
        String readme = Files.readString(DOCS.resolve("../README.md"), StandardCharsets.UTF_8);
        for (String type : new String[] {"IMPROVED_SNOWFLAKE", "SNOWKEY_SEGMENT"}) {
            Properties props = readmeProps(readme, type);
            assertThat(props).as("props of the README's " + type + " YAML").isNotEmpty();
            // init() parses and validates every prop, without connecting to anything.
            assertThat(TypedSPILoader.getService(KeyGenerateAlgorithm.class, type, props).getType()).isEqualTo(type);
        }
    }

    /** The {@code props:} of the README's YAML key generator of that type, comments left out. */
    private static Properties readmeProps(final String readme, final String type) {
        Matcher block = Pattern.compile("\\n( +)type: " + type + "\\n\\1props:\\n((?:\\1  +\\S.*\\n)+)").matcher(readme);
        assertThat(block.find()).as("a YAML key generator of type " + type + " with props in README.md").isTrue();
        Properties result = new Properties();
        for (String line : block.group(2).split("\\n")) {
            String entry = line.replaceFirst("\\s+#.*$", "").trim();
            int colon = entry.indexOf(": ");
            result.setProperty(entry.substring(0, colon), entry.substring(colon + 2).trim());
        }
        return result;
    }

    private static Set<String> knownProps(final String type) {
        Properties props = new Properties();
        props.setProperty("no-such-prop-of-the-reference-test", "1");
        Throwable[] thrown = new Throwable[1];
        assertThatThrownBy(() -> TypedSPILoader.getService(KeyGenerateAlgorithm.class, type, props)).satisfies(ex -> thrown[0] = ex);
        for (Throwable each = thrown[0]; each != null; each = each.getCause()) {
            Matcher known = KNOWN.matcher(String.valueOf(each.getMessage()));
            if (known.find()) {
                return Arrays.stream(known.group(1).split(",")).map(String::trim).collect(Collectors.toCollection(TreeSet::new));
            }
        }
        throw new AssertionError(type + " did not list its known properties for an unknown one", thrown[0]);
    }

    /** Every {@code snowkey.*} property of the configuration metadata on the class path (the starter's jars). */
    private static Set<String> springProperties() throws IOException {
        Set<String> result = new TreeSet<>();
        for (URL each : Collections.list(ConfigurationReferenceTest.class.getClassLoader().getResources("META-INF/spring-configuration-metadata.json"))) {
            String json;
            try (InputStream in = each.openStream()) {
                json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            Matcher name = Pattern.compile("\"name\"\\s*:\\s*\"(snowkey\\.[^\"]+)\"").matcher(properties(json));
            while (name.find()) {
                result.add(name.group(1));
            }
        }
        assertThat(result).as("snowkey.* properties in the configuration metadata").isNotEmpty();
        return result;
    }

    /** The {@code "properties"} array of a metadata file (its {@code "groups"} hold names too, of groups only). */
    private static String properties(final String json) {
        int start = json.indexOf("\"properties\"");
        if (start < 0) {
            return "";
        }
        int open = json.indexOf('[', start);
        int depth = 0;
        for (int i = open; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c == '"') {
                // Skip a string, escapes included: names and descriptions may hold brackets.
                for (i++; json.charAt(i) != '"'; i++) {
                    if (json.charAt(i) == '\\') {
                        i++;
                    }
                }
            } else if (c == '[') {
                depth++;
            } else if (c == ']' && --depth == 0) {
                return json.substring(open, i + 1);
            }
        }
        throw new IllegalStateException("unterminated properties array");
    }

    private static Set<String> propsIn(final String markdown) {
        Set<String> result = new TreeSet<>();
        Matcher row = PROP_ROW.matcher(markdown);
        while (row.find()) {
            result.add(row.group(1));
        }
        return result;
    }

    private static String section(final String text, final String from, final String to) {
        int start = text.indexOf(from);
        int end = text.indexOf(to, start + from.length());
        assertThat(start).as("heading " + from).isNotNegative();
        assertThat(end).as("heading " + to + " after " + from).isGreaterThan(start);
        return text.substring(start, end);
    }

    private static String read(final String name) throws IOException {
        return Files.readString(DOCS.resolve(name), StandardCharsets.UTF_8);
    }
}
