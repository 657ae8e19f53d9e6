package org.snowkey.lease.store.zookeeper.faults;

import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.snowkey.lease.testing.faults.FaultSchedule;

/**
 * Curator's {@link ZookeeperFactory} giving every handle of one client (the first, and each one Curator makes after a
 * session expired) the same {@link FaultSchedule}. A {@code TIMEOUT} holds a call for the client's request timeout
 * ({@code zookeeper.request.timeout}, which SnowKey sets to its connection timeout) and a little more.
 */
public final class FaultInjectingZooKeeperFactory implements ZookeeperFactory {

    private final FaultSchedule schedule;

    public FaultInjectingZooKeeperFactory(final FaultSchedule schedule) {
        this.schedule = schedule;
    }

    public FaultSchedule schedule() {
        return schedule;
    }

    @Override
    public ZooKeeper newZooKeeper(final String connectString, final int sessionTimeout, final Watcher watcher, final boolean canBeReadOnly) throws Exception {
        return newZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, null);
    }

    @Override
    public ZooKeeper newZooKeeper(final String connectString, final int sessionTimeout, final Watcher watcher, final boolean canBeReadOnly, final ZKClientConfig config)
            throws Exception {
        long requestTimeout = config == null ? 0L : config.getLong(ZKClientConfig.ZOOKEEPER_REQUEST_TIMEOUT, 0L);
        long hold = (requestTimeout > 0 ? requestTimeout : sessionTimeout) + 50L;
        return new FaultInjectingZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, config, schedule, hold);
    }
}
