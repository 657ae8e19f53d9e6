package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.etcd.EtcdLeaseStore;
import org.snowkey.segment.store.RangeLogEntry;
import org.snowkey.segment.store.etcd.EtcdRangeLog;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.snowkey.spring.SnowKeySegments;
import org.snowkey.store.etcd.EtcdClient;
import org.snowkey.store.etcd.EtcdTestServer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code snowkey.etcd.*} and {@code snowkey.segment.etcd.*} on a real etcd server: the generator bean leases its
 * worker id there and releases it when the context closes, the segments bean takes its ranges there, each under the
 * namespace its own settings name.
 */
class SnowKeyEtcdTest {

    @RegisterExtension
    static final EtcdTestServer.PerClass ETCD = new EtcdTestServer.PerClass();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SnowKeyAutoConfiguration.class));

    @Test
    void theLeaseAndTheRangesComeFromEtcdUnderTheirOwnNamespaces() {
        String leases = "lease" + UUID.randomUUID().toString().substring(0, 8);
        String segments = "seg" + UUID.randomUUID().toString().substring(0, 8);
        int[] workerId = new int[1];
        runner.withPropertyValues("snowkey.lease.registry=etcd", "snowkey.etcd.endpoints=" + ETCD.server().endpoint(), "snowkey.etcd.namespace=" + leases,
                "snowkey.lease.pool=spring", "snowkey.segment.allocator=etcd", "snowkey.segment.etcd.endpoints=" + ETCD.server().endpoint(),
                "snowkey.segment.etcd.namespace=" + segments, "snowkey.segment.step-min=100").run(context -> {
                    assertThat(context).hasNotFailed();
                    SnowKeyIdGenerator generator = context.getBean(SnowKeyIdGenerator.class);
                    workerId[0] = generator.decode(generator.nextId()).workerId();
                    try (EtcdLeaseStore store = new EtcdLeaseStore(new EtcdClient(ETCD.server().settings(leases)))) {
                        LeaseRecord record = store.read("spring", workerId[0]).orElseThrow().record();
                        assertThat(record.state()).isEqualTo(LeaseRecord.State.HELD);
                    }
                    SnowKeySegments bean = context.getBean(SnowKeySegments.class);
                    assertThat(bean.sequence("invoice").nextId()).isEqualTo(1);
                    assertThat(bean.sequence("invoice").nextId()).isEqualTo(2);
                    try (EtcdClient client = new EtcdClient(ETCD.server().settings(segments))) {
                        RangeLogEntry range = new EtcdRangeLog(client).recent("invoice", 10).get(0);
                        assertThat(range.range().first()).isEqualTo(1);
                        assertThat(range.range().size()).isEqualTo(100);
                    }
                    try (EtcdClient client = new EtcdClient(ETCD.server().settings(leases))) {
                        assertThat(new EtcdRangeLog(client).keys()).as("no ranges under the lease's namespace").isEmpty();
                    }
                });
        try (EtcdLeaseStore store = new EtcdLeaseStore(new EtcdClient(ETCD.server().settings(leases)))) {
            assertThat(store.read("spring", workerId[0]).orElseThrow().record().state()).as("released when the context closed")
                    .isEqualTo(LeaseRecord.State.RELEASED);
        }
    }
}
