package org.snowkey.spring.actuate;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.snowkey.spring.SnowKeyIdGenerator;

/**
 * SnowKey's meters, read from the generator when scraped (nothing is counted twice on the id path):
 * {@code snowkey.ids.issued}, {@code snowkey.time.cache}, {@code snowkey.lease.renewals},
 * {@code snowkey.lease.renewal.failures}, {@code snowkey.clock.back.waits}, {@code snowkey.lease.healthy} and
 * {@code snowkey.worker.ids}, tagged with the lease pool. {@code snowkey.worker.ids} above 1 means the generator was
 * hot and leased more worker ids of the pool: capacity planning for the pool reads it.
 */
public class SnowKeyMetrics implements MeterBinder {

    private final SnowKeyIdGenerator generator;

    public SnowKeyMetrics(final SnowKeyIdGenerator generator) {
        this.generator = generator;
    }

    @Override
    public void bindTo(final MeterRegistry registry) {
        String pool = generator.leaseStatus().pool();
        Tags tags = Tags.of("pool", pool == null ? "none" : pool);
        FunctionCounter.builder("snowkey.ids.issued", generator, SnowKeyIdGenerator::idsIssued)
                .description("Ids issued by every stream of the scope, ShardingSphere's included").tags(tags).register(registry);
        Gauge.builder("snowkey.time.cache", generator, SnowKeyIdGenerator::timeCacheMillis)
                .description("Idle time kept for bursts: how far the id timestamp lags the wall clock (largest of the streams)")
                .baseUnit("milliseconds").tags(tags).register(registry);
        FunctionCounter.builder("snowkey.lease.renewals", generator, each -> each.leaseStatus().renewals())
                .description("Successful lease renewals").tags(tags).register(registry);
        FunctionCounter.builder("snowkey.lease.renewal.failures", generator, each -> each.leaseStatus().renewalFailures())
                .description("Failed lease renewal attempts").tags(tags).register(registry);
        FunctionCounter.builder("snowkey.clock.back.waits", generator, SnowKeyIdGenerator::clockBackWaits)
                .description("Waits for a wall clock that moved back").tags(tags).register(registry);
        Gauge.builder("snowkey.lease.healthy", generator, each -> each.leaseStatus().healthy() && !each.isClosed() ? 1 : 0)
                .description("1 while a worker id is held, 0 when the lease is lost or released").tags(tags).register(registry);
        Gauge.builder("snowkey.worker.ids", generator, each -> each.isClosed() ? 0 : each.workerIds().size())
                .description("Worker ids the generator issues on now: its lease's and the extra ones it leased of the pool while its calls waited for the clock")
                .tags(tags).register(registry);
    }
}
