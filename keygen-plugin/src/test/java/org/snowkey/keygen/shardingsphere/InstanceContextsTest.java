package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.runtime.SnowflakeRuntime;

/**
 * The part of {@link InstanceContexts} that ShardingSphere 5.5.0 needs and 5.5.2 cannot show (the 5.5.0 check module runs
 * the rest on the real 5.5.0): a binding that failed where 5.5.0 ignores the failure. Which context a close releases:
 * {@link OpenContextsTest}.
 */
class InstanceContextsTest {

    @AfterEach
    void closeAll() {
        SnowflakeRuntime.get().closeAll();
    }

    @Test
    void aBindingThatFailedMakesKeysFailNamingItInsteadOfBindingWithoutTheContext() {
        bound("34", new Object());
        ImprovedSnowflakeBinding conflicting = new ImprovedSnowflakeBinding();
        conflicting.init(props("34", "max-tolerate-time-difference-milliseconds", "20"));
        RuntimeException atStartUp = assertThrows(RuntimeException.class, () -> conflicting.bind(Optional.empty(), new Object()));
        IllegalStateException onInsert = assertThrows(IllegalStateException.class, conflicting::generator);
        assertSame(atStartUp, onInsert.getCause());
        assertTrue(onInsert.getMessage().contains("could not bind when ShardingSphere started"), onInsert.getMessage());
    }

    private static void bound(final String workerId, final Object owner) {
        ImprovedSnowflakeBinding binding = new ImprovedSnowflakeBinding();
        binding.init(props(workerId));
        binding.bind(Optional.empty(), owner);
    }

    private static Properties props(final String workerId, final String... more) {
        Properties result = new Properties();
        result.setProperty("worker-id", workerId);
        for (int i = 0; i < more.length; i += 2) {
            result.setProperty(more[i], more[i + 1]);
        }
        return result;
    }
}
