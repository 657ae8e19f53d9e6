package org.snowkey.keygen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.layout.IdLayout;

class SnowKeyCliTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args) {
        return SnowKeyCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void decodesIdsOfTheDefaultLayout() {
        IdLayout layout = IdLayout.defaults();
        long t = layout.toLogical(Instant.parse("2026-11-30T01:02:03.456Z").toEpochMilli());
        long id = layout.compose(layout.counterAt(t) + 5, 4242);
        assertEquals(0, run("decode", Long.toString(id)));
        assertEquals(id + "\ttimestamp=2026-11-30T01:02:03.456Z\tworker-id=4242\tsequence=5\n", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void decodesWithTheLayoutGivenAsOptions() {
        IdLayout layout = IdLayout.of(10, 2, Instant.parse("2020-01-01T00:00:00Z").toEpochMilli());
        long id = layout.compose(layout.counterAt(1000) + 7, 1000);
        assertEquals(0, run("decode", "--worker-id-bits", "10", "--sequence-low-bits", "2", "--epoch", "2020-01-01T00:00:00Z", Long.toString(id)));
        assertEquals(id + "\ttimestamp=2020-01-01T00:00:01Z\tworker-id=1000\tsequence=7\n", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void refusesWhatIsNotAnId() {
        assertEquals(1, run("decode", "-5"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("-5: not a SnowKey id"));
        assertEquals(2, run("encode", "1"));
        assertEquals(2, run("decode", "--worker-id-bits", "40", "1"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("Invalid SnowKey property 'worker-id-bits' = '40'"));
    }
}
