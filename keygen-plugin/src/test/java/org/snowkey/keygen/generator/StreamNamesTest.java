package org.snowkey.keygen.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.StaticWorkerLease;

/** Two spellings of one table must be one stream: two streams on one worker id would issue the same ids. */
class StreamNamesTest {

    @Test
    void spellingsOfOneTableAreOneStream() {
        IdGenerator generator = new IdGenerator(IdLayout.defaults(), new StaticWorkerLease(40), WallClock.system(), 10, 10_000);
        SequenceStream stream = generator.stream("db.t_order");
        for (String each : new String[] {"DB.T_ORDER", "Db.T_Order", "`db`.`t_order`", "\"DB\".\"T_ORDER\"", "[db].[t_order]", " db . t_order "}) {
            assertSame(stream, generator.stream(each), each);
        }
        assertEquals(1, generator.streams().size());
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            assertTrue(ids.add(generator.stream(i % 2 == 0 ? "DB.T_ORDER" : "db.t_order").nextId()), "an id came out twice");
        }
    }

    @Test
    void normalisingIsIdempotent() {
        for (String each : new String[] {"A.B", "`` A ``.b", "\"x\"", "[ [y] ]", "global"}) {
            String once = StreamNames.normalise(each);
            assertEquals(once, StreamNames.normalise(once), each);
        }
        assertEquals("a.b", StreamNames.normalise("`` A ``.b"));
    }

    @Test
    void aStreamNeedsAName() {
        IdGenerator generator = new IdGenerator(IdLayout.defaults(), new StaticWorkerLease(41), WallClock.system(), 10, 10_000);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> generator.stream(" ")).getMessage().contains("needs a name"));
        assertThrows(IllegalArgumentException.class, () -> generator.stream(null));
    }
}
