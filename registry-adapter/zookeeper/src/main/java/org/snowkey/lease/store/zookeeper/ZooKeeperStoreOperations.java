package org.snowkey.lease.store.zookeeper;

import java.io.PrintStream;
import java.util.Map;
import java.util.Optional;

import org.apache.curator.framework.CuratorFramework;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.lease.admin.LeaseAdmin;
import org.snowkey.lease.admin.AbstractStoreOperations;
import org.snowkey.lease.admin.StoreOperations;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.segment.store.OpenRangeLog;
import org.snowkey.segment.store.zookeeper.ZooKeeperRangeLog;
import org.snowkey.store.zookeeper.ZooKeeperClients;
import org.snowkey.store.zookeeper.ZooKeeperLibraries;
import org.snowkey.store.zookeeper.ZooKeeperStoreProps;
import org.snowkey.store.zookeeper.ZooKeeperStoreSettings;

/** {@code LeaseCli --registry zookeeper}, with the command {@code repair-acl} (registered in {@code META-INF/services}). */
public final class ZooKeeperStoreOperations extends AbstractStoreOperations {

    /** The variable the digest is read from unless {@code --digest-env} or {@code --digest-file} says otherwise. */
    static final String DIGEST_ENV = "SNOWKEY_ZOOKEEPER_DIGEST";

    public ZooKeeperStoreOperations() {
        super(ZooKeeperLibraries.STORE,
                StoreOperations.optionsInOrder("--servers", ZooKeeperStoreProps.SERVER_LISTS, "--namespace", ZooKeeperStoreProps.NAMESPACE),
                new Secret("digest", ZooKeeperStoreProps.DIGEST, DIGEST_ENV, "user:password"));
    }

    @Override
    public LeaseStore open(final PropertyReader reader, final LeaseTerms lease, final long timeoutMillis) {
        return new ZooKeeperLeaseStore(ZooKeeperStoreProps.parse(reader, Optional.empty(), timeoutMillis));
    }

    /** The segment nodes under {@code --namespace}, read through a client of their own. */
    @Override
    public Optional<OpenRangeLog> openRangeLog(final PropertyReader reader, final long timeoutMillis) {
        ZooKeeperStoreSettings settings = ZooKeeperStoreProps.parse(reader, Optional.empty(), timeoutMillis);
        CuratorFramework client = ZooKeeperClients.start(settings);
        return Optional.of(OpenRangeLog.of(new ZooKeeperRangeLog(client, settings.namespace()), client::close));
    }

    @Override
    public Map<String, Command> commands() {
        return Map.of("repair-acl", new RepairAcl());
    }

    /** Locks every node of the pool to the digest user (see {@link LeaseNodeAcls}). */
    private static final class RepairAcl implements Command {

        @Override
        public String usage() {
            return "repair-acl " + LeaseAdmin.CONFIRM;
        }

        @Override
        public int run(final LeaseStore store, final LeaseTerms lease, final LeaseAdmin.Arguments parsed, final PrintStream out, final PrintStream err) {
            if (parsed.words().size() != 1) {
                err.println("usage: ... " + usage());
                return 2;
            }
            if (!parsed.flags().contains(LeaseAdmin.CONFIRM)) {
                err.println("refusing to repair the ACL of pool '" + lease.pool() + "' without " + LeaseAdmin.CONFIRM + ". The repair locks every node of the pool "
                        + "to the digest user and, if any was open, reserves each record until a lease duration (" + lease.durationMillis() + " ms, "
                        + "--lease-duration-milliseconds: give the deployment's) from now; holders still running take another number.");
                return 2;
            }
            ((ZooKeeperLeaseStore) store).repairAcls(lease.pool(), System.currentTimeMillis(), lease.durationMillis(), out);
            return 0;
        }
    }
}
