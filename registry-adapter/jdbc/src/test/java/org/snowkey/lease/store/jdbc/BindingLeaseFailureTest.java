package org.snowkey.lease.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.keygen.shardingsphere.ImprovedSnowflakeBinding;

/**
 * A key generator whose worker id lease cannot be taken when ShardingSphere hands over its context (the registry is
 * down): ShardingSphere 5.5.0 ignores the failure of that callback, so the binding keeps it and every key fails naming
 * it, instead of binding later without the context that owns (and releases) the lease.
 */
class BindingLeaseFailureTest {

    @AfterEach
    void closeAll() {
        SnowflakeRuntime.get().closeAll();
    }

    @Test
    void aLeaseThatCouldNotBeTakenAtBindMakesKeysFailNamingIt() throws IOException {
        Properties props = new Properties();
        props.setProperty("lease-registry", "jdbc");
        props.setProperty("jdbc-url", "jdbc:h2:tcp://127.0.0.1:" + closedPort() + "/mem:binding_lease_failure");
        props.setProperty("lease-pool", "binding-lease-failure");
        props.setProperty("lease-acquire-timeout-milliseconds", "1000");
        ImprovedSnowflakeBinding binding = new ImprovedSnowflakeBinding();
        binding.init(props);
        RuntimeException atStartUp = assertThrows(RuntimeException.class, () -> binding.bind(Optional.empty(), new Object()));
        IllegalStateException onInsert = assertThrows(IllegalStateException.class, binding::generator);
        assertSame(atStartUp, onInsert.getCause(), "the key failed on a lease attempt of its own, not naming the failed bind");
        assertTrue(onInsert.getMessage().contains("this IMPROVED_SNOWFLAKE key generator could not bind when ShardingSphere started"), onInsert.getMessage());
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
