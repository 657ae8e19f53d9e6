package org.snowkey.keygen.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import com.cedarsoftware.util.CaseInsensitiveMap;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.StaticWorkerLease;

/** Two spellings of one table must be one stream: two streams on one worker id would issue the same ids. */
class StreamNamesTest {

    @Test
    void spellingsOfOneTableAreOneStream() {
        IdGenerator generator = new IdGenerator(IdLayout.defaults(), new StaticWorkerLease(40), WallClock.system(), new ClockRules(10, 10_000));
        SequenceStream stream = generator.stream("db.t_order");
        for (String each : new String[] {"DB.T_ORDER", "Db.T_Order", "`db`.`t_order`", "\"DB\".\"T_ORDER\"", "[db].[t_order]", " db . t_order "}) {
            assertSame(stream, generator.stream(each), each);
        }
        assertEquals(1, generator.streams().size());
        for (String each : new String[] {"DB.T_ORDER", "`db`.`t_order`", "db.t_order"}) {
            assertSame(stream, generator.stream(each), each + ", asked again");
        }
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            assertTrue(ids.add(generator.stream(i % 2 == 0 ? "DB.T_ORDER" : "db.t_order").nextId()), "an id came out twice");
        }
    }

    /**
     * ShardingSphere 5.5 finds a logic table in a cedarsoftware {@code CaseInsensitiveMap} by the name as spelt in the
     * INSERT (unquoted) and passes that spelling to the key generator. Whatever that map takes for one table must
     * be one stream: {@code String.toLowerCase} folds a final capital sigma and a dotted capital I otherwise.
     */
    @Test
    void namesShardingSphereTakesForOneTableAreOneStream() {
        String[][] oneTable = {{"db.ΟΔΟΣ", "db.οδοσ"}, {"db.T_ORDER_İTEM", "db.t_order_item"}, {"db.ΚΑΣ_Σ", "db.κασ_σ"}};
        for (String[] spellings : oneTable) {
            Map<String, String> shardingSphereTables = new CaseInsensitiveMap<>();
            shardingSphereTables.put(spellings[1], "the logic table");
            assertEquals("the logic table", shardingSphereTables.get(spellings[0]), "ShardingSphere's own view: one table");
            IdGenerator generator = new IdGenerator(IdLayout.defaults(), new StaticWorkerLease(42), WallClock.system(), new ClockRules(10, 10_000));
            assertSame(generator.stream(spellings[1]), generator.stream(spellings[0]), spellings[0] + " and " + spellings[1]);
            generator.close();
        }
    }

    /** ShardingSphere passes the table of {@code INSERT INTO `t.x`} as {@code t.x}: quoted or not, one stream. */
    @Test
    void aQuotedNameWithADotIsTheStreamOfItsUnquotedSpelling() {
        IdGenerator generator = new IdGenerator(IdLayout.defaults(), new StaticWorkerLease(43), WallClock.system(), new ClockRules(10, 10_000));
        SequenceStream stream = generator.stream(streamNameShardingSpherePasses("db", "t.x"));
        for (String each : new String[] {"db.`t.x`", "`db`.`t.x`", "\"db\".\"T.X\"", "[db].[t.x]", "`db.t.x`"}) {
            assertSame(stream, generator.stream(each), each);
        }
        generator.close();
    }

    /** As ImprovedSnowflakeBinding names the stream of an INSERT: database and table as ShardingSphere passes them. */
    private static String streamNameShardingSpherePasses(final String database, final String table) {
        return database + "." + table;
    }

    @Test
    void everyNormalisedNameNormalisesToItself() {
        // A stream's name is its normal form, and a name in normal form must name its own stream when asked as spelt.
        for (int codePoint = Character.MIN_CODE_POINT; codePoint <= Character.MAX_CODE_POINT; codePoint++) {
            if (codePoint < Character.MIN_SURROGATE || codePoint > Character.MAX_SURROGATE) {
                String name = "X" + new String(Character.toChars(codePoint)) + "X";
                String once = StreamNames.normalise(name);
                assertEquals(once, StreamNames.normalise(once), () -> "code point " + Integer.toHexString(name.codePointAt(1)));
            }
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
        IdGenerator generator = new IdGenerator(IdLayout.defaults(), new StaticWorkerLease(41), WallClock.system(), new ClockRules(10, 10_000));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> generator.stream(" ")).getMessage().contains("needs a name"));
        assertThrows(IllegalArgumentException.class, () -> generator.stream(null));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> generator.stream("``")).getMessage().contains("needs a name"),
                "a name of quotes only names nothing");
    }
}
