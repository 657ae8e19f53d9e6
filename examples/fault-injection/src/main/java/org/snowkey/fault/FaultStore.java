package org.snowkey.fault;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.snowkey.fault.FaultExperiment.Registry;

/**
 * The store an experiment's generators share and the faults that take it away, one way for the lease and the segment
 * experiments: a 3-server ZooKeeper ensemble whose quorum is lost by killing all but one server, PostgreSQL behind
 * a {@link TcpProxy} that is cut, or one etcd server that is SIGKILLed and started again on its data.
 */
final class FaultStore implements AutoCloseable {

    private final Registry registry;

    private final String jdbcUrl;

    private ZooKeeperEnsemble ensemble;

    private TcpProxy proxy;

    private EtcdServer etcd;

    /** The server left running by the last {@link #down}. */
    private int sparedServer;

    /** How long a start of the etcd server may take until it answers. */
    private static final long ETCD_START_MILLIS = 60_000;

    private FaultStore(final Registry registry, final String jdbcUrl) {
        this.registry = registry;
        this.jdbcUrl = jdbcUrl;
    }

    /**
     * Starts the ensemble and waits for its quorum, or opens the proxy in front of the database.
     *
     * @param label how the experiment's log lines begin
     */
    static FaultStore start(final Registry registry, final Path dir, final String jdbcUrl, final Processes processes, final String label) throws Exception {
        FaultStore store = new FaultStore(registry, jdbcUrl);
        if (registry == Registry.ZOOKEEPER) {
            store.ensemble = new ZooKeeperEnsemble(dir, processes);
            store.ensemble.startAll();
            if (!store.ensemble.awaitQuorum(60_000)) {
                store.close();
                throw new IllegalStateException("the ZooKeeper ensemble did not form a quorum within 60 s; logs in " + dir);
            }
            FaultExperiment.log("%sZooKeeper ensemble of %d servers at %s", label, ZooKeeperEnsemble.SIZE, store.ensemble.connectString());
        } else if (registry == Registry.ETCD) {
            Path binary = EtcdServer.findBinary();
            if (binary == null) {
                throw new IllegalStateException(EtcdServer.missingBinaryMessage());
            }
            store.etcd = new EtcdServer(binary, dir.resolve("etcd"), processes);
            try {
                store.etcd.start(ETCD_START_MILLIS);
            } catch (final Exception ex) {
                store.close();
                throw ex;
            }
            FaultExperiment.log("%setcd %s at %s", label, binary, store.etcd.endpoint());
        } else {
            store.proxy = new TcpProxy(portOf(jdbcUrl));
            FaultExperiment.log("%sPostgreSQL %s through a cuttable proxy on 127.0.0.1:%d", label, jdbcUrl, store.proxy.port());
        }
        return store;
    }

    private static int portOf(final String url) {
        Matcher matcher = Pattern.compile("//[^:/]+:(\\d+)/").matcher(url);
        return matcher.find() ? Integer.parseInt(matcher.group(1)) : 5432;
    }

    /** The ensemble (ZooKeeper runs only). */
    ZooKeeperEnsemble ensemble() {
        return ensemble;
    }

    /** The etcd server (etcd runs only). */
    EtcdServer etcd() {
        return etcd;
    }

    /** The JDBC URL through the proxy (PostgreSQL runs only): what the generators connect to. */
    String jdbcUrlThroughProxy() {
        return jdbcUrl.replaceFirst("//[^/]+/", "//127.0.0.1:" + proxy.port() + "/");
    }

    /** The props that lease a generator's worker ids from this store (through the proxy for PostgreSQL). */
    List<String> leaseProps(final String jdbcUser) {
        if (registry == Registry.ZOOKEEPER) {
            return List.of("lease-registry=zookeeper", "zookeeper-server-lists=" + ensemble.connectString(), "zookeeper-namespace=fault-injection");
        }
        if (registry == Registry.ETCD) {
            return List.of("lease-registry=etcd", "etcd-endpoints=" + etcd.endpoint(), "etcd-namespace=fault-injection");
        }
        return List.of("lease-registry=jdbc", "jdbc-url=" + jdbcUrlThroughProxy(), "jdbc-username=" + jdbcUser, "jdbc-table=snowkey_fault_leases");
    }

    /** Takes the store away: every server but a random one killed (no quorum), the etcd server killed, or the proxy cut. Returns what was done. */
    String down(final Random random) throws InterruptedException {
        if (registry == Registry.ETCD) {
            etcd.kill();
            return "etcd SIGKILLed";
        }
        if (registry == Registry.ZOOKEEPER) {
            sparedServer = random.nextInt(ZooKeeperEnsemble.SIZE);
            for (int i = 0; i < ZooKeeperEnsemble.SIZE; i++) {
                if (i != sparedServer) {
                    ensemble.kill(i);
                }
            }
            return "only server " + (sparedServer + 1) + " up";
        }
        proxy.cut();
        return "database unreachable";
    }

    /** Ends {@link #down}: the killed servers start and a quorum forms (or etcd answers again), or the proxy forwards again. */
    void back() throws Exception {
        if (registry == Registry.ETCD) {
            etcd.start(ETCD_START_MILLIS);
            return;
        }
        if (registry == Registry.ZOOKEEPER) {
            for (int i = 0; i < ZooKeeperEnsemble.SIZE; i++) {
                if (i != sparedServer) {
                    ensemble.start(i);
                }
            }
            ensemble.awaitQuorum(60_000);
        } else {
            proxy.restore();
        }
    }

    @Override
    public void close() throws Exception {
        if (ensemble != null) {
            ensemble.close();
        }
        if (proxy != null) {
            proxy.close();
        }
        if (etcd != null) {
            etcd.close();
        }
    }
}
