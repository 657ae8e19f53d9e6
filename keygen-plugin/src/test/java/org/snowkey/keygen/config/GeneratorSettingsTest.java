package org.snowkey.keygen.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Properties;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class GeneratorSettingsTest {

    private static final long NOW = Instant.parse("2026-06-01T00:00:00Z").toEpochMilli();

    private static GeneratorSettings parse(final String... keyValues) {
        Properties props = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            props.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return GeneratorSettings.parse(props, Set.of("zookeeper-server-lists"), NOW);
    }

    @Test
    void defaultsFollowTheDesign() {
        GeneratorSettings settings = parse();
        assertEquals(13, settings.layout().workerIdBits());
        assertEquals(1, settings.layout().sequenceLowBits());
        assertEquals(Instant.parse("2025-01-01T00:00:00Z").toEpochMilli(), settings.layout().epochMillis());
        assertEquals(10, settings.maxTolerateTimeDifferenceMillis());
        assertEquals(10_000, settings.maxTimeCacheMillis());
        assertEquals(SequenceScope.TABLE, settings.sequenceScope());
        assertNull(settings.workerId());
    }

    /** The widest worker id leaves one sequence bit; it must count every table together, so no low bit is left by default. */
    @Test
    void theWidestWorkerIdTakesNoLowBitsByDefault() {
        GeneratorSettings settings = parse("worker-id-bits", "21");
        assertEquals(1, settings.layout().sequenceBits());
        assertEquals(0, settings.layout().sequenceLowBits());
    }

    @Test
    void acceptsEveryPropInRange() {
        GeneratorSettings settings = parse("worker-id", "1023", "worker-id-bits", "10", "sequence-low-bits", "11", "epoch", "1700000000000",
                "max-tolerate-time-difference-milliseconds", "0", "sequence-scope", "GLOBAL", "max-time-cache-milliseconds", "0",
                "zookeeper-server-lists", "ignored here");
        assertEquals(1023, settings.workerId());
        assertEquals(11, settings.layout().sequenceLowBits());
        assertEquals(1_700_000_000_000L, settings.layout().epochMillis());
        assertEquals(SequenceScope.GLOBAL, settings.sequenceScope());
        assertEquals(0, settings.maxTimeCacheMillis());
        assertEquals(Instant.parse("2024-03-01T10:00:00Z").toEpochMilli(), parse("epoch", "2024-03-01T10:00:00Z").layout().epochMillis());
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
            "worker-id-bits | 0 | expected a whole number from 1 to 21",
            "worker-id-bits | 22 | expected a whole number from 1 to 21",
            "worker-id-bits | ten | expected a whole number from 1 to 21",
            "sequence-low-bits | 10 | expected a whole number from 0 to 8",
            "sequence-low-bits | 9 | expected a whole number from 0 to 8",
            "sequence-low-bits | -1 | expected a whole number from 0 to 8",
            "worker-id | 8192 | expected a whole number from 0 to 8191",
            "worker-id | -1 | expected a whole number from 0 to 8191",
            "worker-id | 1.5 | expected a whole number from 0 to 8191",
            "epoch | 2030-01-01T00:00:00Z | the epoch must lie in the past",
            "epoch | yesterday | expected an ISO-8601 instant",
            "epoch | 2024-13-01T00:00:00Z | expected an ISO-8601 instant",
            "epoch | 1900-01-01T00:00:00Z | 41 bits of milliseconds from this epoch ran out",
            "epoch | -5 | expected an ISO-8601 instant",
            "max-tolerate-time-difference-milliseconds | -5 | expected a whole number from 0 to 86400000",
            "max-tolerate-time-difference-milliseconds | 86400001 | expected a whole number from 0 to 86400000",
            "max-time-cache-milliseconds | -1 | expected a whole number from 0 to",
            "max-time-cache-milliseconds | 10s | expected a whole number from 0 to",
            "sequence-scope | tables | expected 'table' or 'global'",
    })
    void rejectsBadValuesNamingThePropAndTheValue(final String prop, final String value, final String expected) {
        InvalidSettingException failure = assertThrows(InvalidSettingException.class, () -> parse(prop, value));
        assertEquals(prop, failure.property());
        assertTrue(failure.getMessage().startsWith("Invalid SnowKey property '" + prop + "' = '" + value + "': "), failure.getMessage());
        assertTrue(failure.getMessage().contains(expected), failure.getMessage());
    }

    @Test
    void workerIdRangeFollowsWorkerIdBits() {
        assertEquals(3, parse("worker-id-bits", "2", "worker-id", "3").workerId());
        InvalidSettingException failure = assertThrows(InvalidSettingException.class, () -> parse("worker-id-bits", "2", "worker-id", "4"));
        assertTrue(failure.getMessage().contains("from 0 to 3"), failure.getMessage());
    }
}
