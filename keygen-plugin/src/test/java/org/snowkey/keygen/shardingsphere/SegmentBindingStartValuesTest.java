package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.segment.runtime.SegmentPlanner;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.config.InvalidSettingException;

/**
 * A start value exists to continue above the rows a table already has. In ShardingSphere a table's sequence key is
 * {@code <database>.<table>} (or the one {@code segment-key}), so a start value of any other key never applies and the
 * table would restart at 1, into its own rows: {@code init()} refuses it, naming the prop and the value. No I/O.
 */
class SegmentBindingStartValuesTest {

    private static Properties props(final String... pairs) {
        Properties props = new Properties();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            props.setProperty(pairs[i], pairs[i + 1]);
        }
        return props;
    }

    @Test
    void aStartValueOfATableWithoutItsDatabaseFailsNamingPropAndValue() {
        InvalidSettingException failure = assertThrows(InvalidSettingException.class,
                () -> new SegmentBinding().init(props("segment-start-values", "sharding_db.t_item=51, t_order=1001")));
        assertEquals("segment-start-values", failure.property());
        assertTrue(failure.getMessage().contains("'sharding_db.t_item=51, t_order=1001'"), failure.getMessage());
        assertTrue(failure.getMessage().contains("key 't_order' names no database") && failure.getMessage().contains("<database>.<table>"), failure.getMessage());
    }

    @Test
    void withASharedKeyOnlyItsStartValueCanApply() {
        InvalidSettingException failure = assertThrows(InvalidSettingException.class,
                () -> new SegmentBinding().init(props("segment-key", "orders", "segment-start-values", "sharding_db.t_order=1001")));
        assertEquals("segment-start-values", failure.property());
        assertTrue(failure.getMessage().contains("cannot apply to key 'sharding_db.t_order': segment-key = 'orders'"), failure.getMessage());
    }

    @Test
    void onLinesThatDoNotNameTheTableTheSegmentKeyIsAskedForFirstThenItsStartValue() {
        InvalidSettingException noKey = assertThrows(InvalidSettingException.class,
                () -> new SegmentBinding().initWithoutTables(props("segment-start-values", "t_order=1001"), "5.4"));
        assertEquals("segment-key", noKey.property(), noKey.getMessage());
        InvalidSettingException otherKey = assertThrows(InvalidSettingException.class,
                () -> new SegmentBinding().initWithoutTables(props("segment-key", "t_order", "segment-start-values", "sharding_db.t_order=1001"), "5.4"));
        assertEquals("segment-start-values", otherKey.property(), otherKey.getMessage());
        new SegmentBinding().initWithoutTables(props("segment-key", "t_order", "segment-start-values", "T_Order=1001"), "5.4");
    }

    @Test
    void startValuesThatCanApplyAreAccepted() {
        new SegmentBinding().init(props("segment-start-values", "Sharding_DB.T_Order=1001, sharding_db.t_item=51"));
        new SegmentBinding().init(props("segment-key", "Orders", "segment-start-values", "orders=1001"));
    }

    /**
     * Start values inherited from the Spring integration ({@code snowkey.segment.start-values}) also serve the
     * application's own named sequences, whose keys are no tables: a YAML key generator inheriting them must start.
     */
    @Test
    void inheritedStartValuesOfOtherKeysDoNotStopAKeyGenerator() {
        try {
            SegmentPlanner.get().setDefaults(props("segment-start-values", "invoice=100"));
            new SegmentBinding().init(props());
            new SegmentBinding().init(props("segment-key", "orders"));
            assertThrows(InvalidSettingException.class, () -> new SegmentBinding().init(props("segment-start-values", "t_order=5")),
                    "its own start values are still checked");
        } finally {
            SegmentPlanner.get().setDefaults(new Properties());
        }
    }

    /**
     * A key generator whose props were refused at {@code init()} issues no keys: it never falls back to the settings
     * every key generator inherits (the Spring integration's allocator here), which would give the table keys from 1.
     */
    @Test
    void aKeyGeneratorWhosePropsWereRefusedIssuesNoKeysFromTheInheritedSettings() {
        try {
            SegmentPlanner.get().setDefaults(props("segment-allocator", SharedMemorySegmentAllocatorProvider.NAME));
            SegmentBinding refused = new SegmentBinding();
            assertThrows(InvalidSettingException.class, () -> refused.init(props("segment-start-values", "t_refused=5000")));
            InvalidSettingException onInsert = assertThrows(InvalidSettingException.class, () -> refused.sequence("refused_db", "t_refused"));
            assertEquals("segment-start-values", onInsert.property(), onInsert.getMessage());
        } finally {
            SegmentPlanner.get().setDefaults(new Properties());
            SegmentRuntime.get().closeAll();
        }
    }
}
