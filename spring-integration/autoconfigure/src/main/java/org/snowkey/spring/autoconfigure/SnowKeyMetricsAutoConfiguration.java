package org.snowkey.spring.autoconfigure;

import io.micrometer.core.instrument.binder.MeterBinder;

import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.snowkey.spring.actuate.SnowKeyMetrics;
import org.snowkey.spring.actuate.SnowKeySegmentMetrics;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** Micrometer, when the application has it: SnowKey's meters, bound to every MeterRegistry by Spring Boot. */
@AutoConfiguration(after = SnowKeyAutoConfiguration.class)
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBean(SnowKeyIdGenerator.class)
public class SnowKeyMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public SnowKeyMetrics snowKeyMetrics(final SnowKeyIdGenerator generator) {
        return new SnowKeyMetrics(generator);
    }

    /**
     * Meters of the JVM's segment sequences, registered as sequences appear (first INSERT into a table); none while there
     * are none, so applications without segments see no change. Closed with the context: it stops listening.
     */
    @Bean
    @ConditionalOnMissingBean
    public SnowKeySegmentMetrics snowKeySegmentMetrics() {
        return new SnowKeySegmentMetrics(SegmentRuntime.get());
    }
}
