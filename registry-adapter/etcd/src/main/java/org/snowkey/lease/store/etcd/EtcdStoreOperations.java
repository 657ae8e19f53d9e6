package org.snowkey.lease.store.etcd;

import java.util.Map;
import java.util.Optional;

import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.lease.admin.AbstractStoreOperations;
import org.snowkey.lease.admin.StoreOperations;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.segment.store.OpenRangeLog;
import org.snowkey.segment.store.etcd.EtcdRangeLog;
import org.snowkey.store.etcd.EtcdClient;
import org.snowkey.store.etcd.EtcdLibraries;
import org.snowkey.store.etcd.EtcdStoreProps;
import org.snowkey.store.etcd.EtcdStoreSettings;

/**
 * {@code LeaseCli --registry etcd} (registered in {@code META-INF/services}): the lease records and segment ranges
 * under {@code --namespace}, read and released through the stores' own client; nothing is created. The password
 * (with {@code --user}) comes from {@code SNOWKEY_ETCD_PASSWORD}, {@code --password-env} or {@code --password-file}.
 */
public final class EtcdStoreOperations extends AbstractStoreOperations {

    /** The variable the password is read from unless {@code --password-env} or {@code --password-file} says otherwise. */
    static final String PASSWORD_ENV = "SNOWKEY_ETCD_PASSWORD";

    public EtcdStoreOperations() {
        super(EtcdLibraries.STORE,
                StoreOperations.optionsInOrder("--endpoints", EtcdStoreProps.ENDPOINTS, "--namespace", EtcdStoreProps.NAMESPACE, "--user", EtcdStoreProps.USER,
                        "--ca-file", EtcdStoreProps.CA_FILE, "--cert-file", EtcdStoreProps.CERT_FILE, "--key-file", EtcdStoreProps.KEY_FILE),
                new Secret("password", EtcdStoreProps.PASSWORD, PASSWORD_ENV, "the password of --user"));
    }

    @Override
    public LeaseStore open(final PropertyReader reader, final LeaseTerms lease, final long timeoutMillis) {
        return new EtcdLeaseStore(new EtcdClient(settings(reader, timeoutMillis)));
    }

    /** The segment counters and range log under {@code --namespace}, read through a client of their own. */
    @Override
    public Optional<OpenRangeLog> openRangeLog(final PropertyReader reader, final long timeoutMillis) {
        EtcdClient client = new EtcdClient(settings(reader, timeoutMillis));
        return Optional.of(OpenRangeLog.of(new EtcdRangeLog(client), client::close));
    }

    /**
     * The operator's settings: the options alone, no Cluster mode to fill them. The environment is not consulted here:
     * the tool has already put the password it read into {@code etcd-password}, and no option sets the props that name
     * a variable or a file.
     */
    static EtcdStoreSettings settings(final PropertyReader reader, final long timeoutMillis) {
        return EtcdStoreProps.resolve(EtcdStoreProps.parse(reader, Map.of()), Optional.empty(), timeoutMillis);
    }
}
