package org.snowkey.store.zookeeper;

import org.apache.curator.framework.CuratorFramework;
import org.snowkey.lease.store.zookeeper.faults.ZooKeeperFaultSweep;

/**
 * SnowKey's own ZooKeeper clients ({@link ZooKeeperClients}: no Curator retries, request timeout = connection timeout,
 * digest ACLs) over the fault-injecting handles of one sweep run, for tests in any package.
 */
public final class FaultInjectedClients {

    /**
     * Short, so that a TIMEOUT fault (held for the request timeout) costs little, and long enough for a loaded
     * machine's embedded server never to time out by itself.
     */
    public static final int CONNECTION_TIMEOUT_MILLIS = 1_000;

    private FaultInjectedClients() {
    }

    public static ZooKeeperStoreSettings settings(final ZooKeeperFaultSweep.Run run, final String digest) {
        return new ZooKeeperStoreSettings(run.serverLists(), run.namespace(), digest, CONNECTION_TIMEOUT_MILLIS);
    }

    /** A started client of the run, as the lease store and the segment allocator provider open one. */
    public static CuratorFramework client(final ZooKeeperFaultSweep.Run run, final String digest) {
        return ZooKeeperClients.start(settings(run, digest), run.handles());
    }
}
