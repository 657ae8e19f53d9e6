package org.snowkey.store.etcd;

import org.snowkey.store.StoreKind;
import org.snowkey.store.StoreLibraries;

/** What the etcd store needs besides the JDK: nothing, so the check only names this store's own artifact. */
public final class EtcdLibraries {

    /** Checked before an etcd lease or segment allocator is parsed. */
    public static final StoreLibraries REQUIRED = new StoreLibraries(EtcdLibraries.class, "org.snowkey:snowkey-lease-etcd");

    /** The store as its lease provider, segment allocator provider and operations name it. */
    public static final StoreKind STORE = new StoreKind("etcd", EtcdStoreProps.NAMES, REQUIRED);

    private EtcdLibraries() {
    }
}
