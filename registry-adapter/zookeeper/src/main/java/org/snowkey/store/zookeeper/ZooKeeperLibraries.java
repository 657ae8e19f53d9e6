package org.snowkey.store.zookeeper;

import org.snowkey.store.StoreKind;
import org.snowkey.store.StoreLibraries;

/**
 * What the ZooKeeper store needs: Curator and ZooKeeper, which SnowKey's artifact declares optional (see
 * {@link StoreLibraries}). No Jackson: the store writes its JSON itself.
 */
public final class ZooKeeperLibraries {

    /** Checked before a ZooKeeper lease or segment allocator is parsed, and by the operations tool. */
    public static final StoreLibraries REQUIRED = new StoreLibraries(ZooKeeperLibraries.class, "org.snowkey:snowkey-lease-zookeeper",
            "org.apache.curator.framework.CuratorFramework", "org.apache.curator:curator-framework",
            "org.apache.curator.RetryPolicy", "org.apache.curator:curator-client",
            "org.apache.zookeeper.ZooKeeper", "org.apache.zookeeper:zookeeper");

    /** The store as its lease provider, segment allocator provider and operations name it. */
    public static final StoreKind STORE = new StoreKind("zookeeper", ZooKeeperStoreProps.NAMES, REQUIRED);

    private ZooKeeperLibraries() {
    }
}
