package org.snowkey.lease.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The operations tool with both stores on the class path: the store is chosen by --registry, and a secret on the
 * command line is refused whichever store is chosen. Each store's commands are tested in its own module
 * (JdbcLeaseCliTest on H2, ZooKeeperLeaseStoreTest and ZooKeeperAclTrustTest on a ZooKeeper TestingServer).
 */
class LeaseCliTest {

    private static final String SECRET = "Sekr3t-lease-cli-42";

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args) {
        return LeaseCli.run(args, Map.of(), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String errors() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theStoreIsChosenByRegistryAmongThoseOnTheClassPath() {
        assertEquals(2, run("list"));
        assertTrue(errors().contains("--registry is required") && errors().contains("--registry etcd|jdbc|zookeeper"), errors());
        err.reset();
        assertEquals(2, run("--registry", "consul", "list"));
        assertTrue(errors().contains("--registry consul is not a lease store on the class path (etcd, jdbc, zookeeper)"), errors());
        err.reset();
        assertEquals(2, run("--registry", "jdbc", "--url", "jdbc:h2:mem:x", "repair-acl"));
        assertTrue(errors().contains("unknown command repair-acl for --registry jdbc"), errors());
    }

    @Test
    void theUsageNamesEachStoresOptionsSecretAndCommands() {
        assertEquals(2, run());
        assertTrue(errors().contains("--registry jdbc: --url <jdbc-url> --username <jdbc-username> --table <jdbc-table> "
                + "[--password-env VARIABLE (default SNOWKEY_JDBC_PASSWORD) | --password-file PATH]"), errors());
        assertTrue(errors().contains("--registry zookeeper: --servers <zookeeper-server-lists> --namespace <zookeeper-namespace> "
                + "[--digest-env VARIABLE (default SNOWKEY_ZOOKEEPER_DIGEST) | --digest-file PATH] | repair-acl --yes-i-am-sure"), errors());
    }

    @Test
    void aSecretOnTheCommandLineIsRefusedWhicheverStoreIsChosen() {
        for (String[] args : new String[][] {
                {"--registry", "zookeeper", "--servers", "zk:2181", "--digest", "app:" + SECRET, "list"},
                {"--registry", "jdbc", "--url", "jdbc:h2:mem:x", "--password", SECRET, "list"},
                {"--registry", "zookeeper", "--servers", "zk:2181", "--password", SECRET, "list"},
                {"--digest", "app:" + SECRET, "list"}}) {
            err.reset();
            assertEquals(2, run(args), errors());
            assertTrue(errors().contains("is not accepted: the command line is visible to every user of the host"), errors());
            assertFalse(errors().contains(SECRET), errors());
        }
    }
}
