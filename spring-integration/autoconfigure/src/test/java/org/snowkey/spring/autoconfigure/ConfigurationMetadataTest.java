package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The configuration properties users see (names, types, defaults), read from the metadata the build generates, are
 * the committed list {@code configuration-properties.txt}: a property class may be reshaped, a property may not change
 * without this list changing with it.
 */
class ConfigurationMetadataTest {

    private static final String METADATA = "META-INF/spring-configuration-metadata.json";

    @Test
    void generatedPropertiesAreTheCommittedList() throws IOException {
        List<String> generated = new ArrayList<>();
        properties().forEach((name, each) -> generated.add(name + " " + each.path("type").asText("-") + " "
                + (each.hasNonNull("defaultValue") ? each.get("defaultValue").toString() : "-")));
        assertThat(generated).containsExactlyElementsOf(committed());
    }

    /** The two stores' property classes are shared by the lease and the segment allocator; what each use means is told apart. */
    @Test
    void eachUseOfAStoreClassKeepsItsOwnDescription() throws IOException {
        Map<String, JsonNode> properties = properties();
        assertThat(description(properties, "snowkey.jdbc.table")).startsWith("Lease table name");
        assertThat(description(properties, "snowkey.segment.jdbc.table")).startsWith("Counter table name").contains("_log");
        assertThat(description(properties, "snowkey.zookeeper.namespace")).startsWith("Lease nodes live at");
        assertThat(description(properties, "snowkey.segment.zookeeper.namespace")).startsWith("Counter nodes live at");
        assertThat(description(properties, "snowkey.jdbc.password")).isEqualTo(description(properties, "snowkey.segment.jdbc.password"));
        assertThat(description(properties, "snowkey.etcd.namespace")).startsWith("Lease keys live at");
        assertThat(description(properties, "snowkey.segment.etcd.namespace")).startsWith("Counter keys live at");
        assertThat(description(properties, "snowkey.etcd.password")).isEqualTo(description(properties, "snowkey.segment.etcd.password"));
    }

    private static String description(final Map<String, JsonNode> properties, final String name) {
        assertThat(properties).containsKey(name);
        return properties.get(name).path("description").asText("");
    }

    /** This module's properties, by name: the metadata file among the class path's that describes snowkey.* (Boot's own jars carry one too). */
    private static Map<String, JsonNode> properties() throws IOException {
        Map<String, JsonNode> result = new TreeMap<>();
        for (URL each : Collections.list(ConfigurationMetadataTest.class.getClassLoader().getResources(METADATA))) {
            JsonNode metadata;
            try (InputStream in = each.openStream()) {
                metadata = new ObjectMapper().readTree(in);
            }
            for (JsonNode property : metadata.path("properties")) {
                String name = property.get("name").asText();
                if (name.startsWith("snowkey.") || name.startsWith("management.endpoint.snowkey.")) {
                    assertThat(result.put(name, property)).as("%s described twice", name).isNull();
                }
            }
        }
        assertThat(result).as("no %s describes snowkey.*", METADATA).isNotEmpty();
        return result;
    }

    private static List<String> committed() throws IOException {
        try (InputStream in = ConfigurationMetadataTest.class.getResourceAsStream("/configuration-properties.txt")) {
            assertThat(in).as("configuration-properties.txt").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
        }
    }
}
