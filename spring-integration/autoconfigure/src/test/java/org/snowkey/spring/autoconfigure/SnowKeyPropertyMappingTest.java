package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.config.InvalidSettingException;

/** The translation to snowkey.* names reads the exception's fields, so no value or explanation can confuse it. */
class SnowKeyPropertyMappingTest {

    @Test
    void aValueThatLooksLikeTheMessageSyntaxIsTranslatedWhole() {
        SnowKeyProperties properties = new SnowKeyProperties();
        properties.getJdbc().setTable("a': b' = 'c");
        SnowKeyConfigurationException translated = SnowKeyPropertyMapping.SNOWFLAKE.translate(
                new InvalidSettingException("jdbc-table", "a': b' = 'c", "expected a table name"), properties);
        assertThat(translated.property()).isEqualTo("snowkey.jdbc.table");
        assertThat(translated.getMessage()).isEqualTo("Invalid SnowKey property 'snowkey.jdbc.table' = 'a': b' = 'c': expected a table name"
                + " (key generator prop 'jdbc-table' = 'a': b' = 'c')");
    }

    @Test
    void durationsShowAsSpringWroteThemAndSecretsStayHidden() {
        SnowKeyProperties properties = new SnowKeyProperties();
        properties.getLease().setDuration(Duration.ofMillis(500));
        properties.getJdbc().setPassword("pw");
        assertThat(SnowKeyPropertyMapping.SNOWFLAKE.translate(new InvalidSettingException("lease-duration-milliseconds", "500", "expected 1000 to 86400000"), properties)
                .getMessage()).isEqualTo("Invalid SnowKey property 'snowkey.lease.duration' = '500ms': expected 1000 to 86400000"
                        + " (key generator prop 'lease-duration-milliseconds' = '500')");
        assertThat(SnowKeyPropertyMapping.SNOWFLAKE.translate(new InvalidSettingException("jdbc-password", "pw", "refused"), properties).getMessage())
                .isEqualTo("Invalid SnowKey property 'snowkey.jdbc.password' = '(hidden)': refused (key generator prop 'jdbc-password' = '(hidden)')");
    }

    @Test
    void anUnknownPropKeepsItsValueUnshown() {
        SnowKeyConfigurationException translated = SnowKeyPropertyMapping.SNOWFLAKE.translate(
                InvalidSettingException.unknown("worker-id", "x", "unknown"), new SnowKeyProperties());
        assertThat(translated.getMessage()).isEqualTo("Invalid SnowKey property 'snowkey.worker-id' (value not shown): unknown (key generator prop 'worker-id')");
    }
}
