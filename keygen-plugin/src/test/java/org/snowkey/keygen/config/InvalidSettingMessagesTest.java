package org.snowkey.keygen.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rejection messages are written by hand into YAML and Spring properties and read back in logs: they must not
 * echo a secret (a misspelt or unknown prop, or any prop named like a secret), and must not let a value forge
 * log lines or flood them.
 */
class InvalidSettingMessagesTest {

    private static final String SECRET = "TopSecret-4711";

    private static final long NOW = Instant.parse("2026-06-01T00:00:00Z").toEpochMilli();

    private static InvalidSettingException rejected(final String name, final String value) {
        Properties props = new Properties();
        props.setProperty(name, value);
        return assertThrows(InvalidSettingException.class, () -> GeneratorSettings.parse(props, Set.of("jdbc-password", "zookeeper-digest"), NOW));
    }

    @Test
    void misspeltPasswordIsNotEchoed() {
        InvalidSettingException failure = rejected("jdbc-pasword", SECRET);
        assertNoSecret(failure.getMessage());
        assertEquals("jdbc-pasword", failure.property());
        assertTrue(failure.getMessage().startsWith("Invalid SnowKey property 'jdbc-pasword' (value not shown): unknown property; known properties are ["),
                failure.getMessage());
    }

    @Test
    void anyUnknownPropHidesItsValue() {
        assertNoSecret(rejected("worker-id-bit", SECRET).getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc-password", "zookeeper-digest", "db-pwd", "api-token", "ssl-key", "client-secret", "aws-credentials"})
    void secretLookingNamesNeverShowTheirValue(final String name) {
        InvalidSettingException failure = new InvalidSettingException(name, SECRET, "expected something else");
        assertNoSecret(failure.getMessage());
        assertEquals("Invalid SnowKey property '" + name + "' = '(hidden)': expected something else", failure.getMessage());
    }

    @Test
    void controlCharactersAreEscaped() {
        InvalidSettingException failure = rejected("worker-id", "1\nINFO forged line\r\u0000\u2028\u202e");
        assertFalse(failure.getMessage().chars().anyMatch(Character::isISOControl), failure.getMessage());
        assertFalse(failure.getMessage().contains("\u2028") || failure.getMessage().contains("\u202e"), failure.getMessage());
        assertTrue(failure.getMessage().contains("'1\\nINFO forged line\\r\\u0000\\u2028\\u202e'"), failure.getMessage());
    }

    @Test
    void unknownPropNamesAreEscapedToo() {
        InvalidSettingException failure = rejected("x\nERROR forged", "1");
        assertFalse(failure.getMessage().chars().anyMatch(Character::isISOControl), failure.getMessage());
        assertTrue(failure.getMessage().startsWith("Invalid SnowKey property 'x\\nERROR forged'"), failure.getMessage());
    }

    @Test
    void longValuesAreCutWithTheirLength() {
        String huge = "9".repeat(100_000);
        InvalidSettingException failure = rejected("worker-id", huge);
        assertTrue(failure.getMessage().length() < 1_000, "message of " + failure.getMessage().length() + " characters");
        assertTrue(failure.getMessage().contains("'" + "9".repeat(200) + "... (cut, 100000 characters in all)'"), failure.getMessage());
    }

    @Test
    void ordinaryValuesStayReadable() {
        assertEquals("Invalid SnowKey property 'worker-id' = 'seven ☃ 😀': expected a number",
                new InvalidSettingException("worker-id", "seven ☃ 😀", "expected a number").getMessage());
    }

    private static void assertNoSecret(final String text) {
        for (String each : forms(SECRET)) {
            assertFalse(text.contains(each), "'" + each + "' found in: " + text);
        }
    }

    /** The secret as written, in Base64 and in hex: a leak may be encoded. */
    static List<String> forms(final String secret) {
        byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
        return List.of(secret, Base64.getEncoder().encodeToString(bytes), Base64.getUrlEncoder().withoutPadding().encodeToString(bytes),
                HexFormat.of().formatHex(bytes), HexFormat.of().withUpperCase().formatHex(bytes));
    }
}
