package org.snowkey.examples.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * The ShardingSphere YAML that the Spring Boot guide (docs/spring-boot.md, linked from README.md) shows is the one this
 * application runs and its tests exercise, word for word.
 */
class ReadmeConfigurationTest {

    @Test
    void theSpringBootGuideShowsTheExamplesShardingSphereYamlInFull() throws IOException {
        // Tests run in the module's directory: examples/<module>.
        String guide = Files.readString(Path.of("../../docs/spring-boot.md"), StandardCharsets.UTF_8);
        String yaml;
        try (InputStream in = ReadmeConfigurationTest.class.getResourceAsStream("/orders.yaml")) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(guide).contains("```yaml\n" + yaml + "```");
    }
}
