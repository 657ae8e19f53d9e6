package org.snowkey.spring.autoconfigure;

import java.util.Optional;
import java.util.Properties;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.runtime.ScopePlan;
import org.snowkey.keygen.runtime.SnowKeyRuntime;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * SnowKey in a Spring Boot application: {@code snowkey.*} become the defaults of every {@code IMPROVED_SNOWFLAKE}
 * key generator of the JVM, a {@link SnowKeyIdGenerator} bean shares their scope, the lease is acquired while the
 * context starts and released after the data sources have closed.
 */
@AutoConfiguration
@ConditionalOnClass(SnowKeyRuntime.class)
@ConditionalOnProperty(prefix = "snowkey", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(SnowKeyProperties.class)
public class SnowKeyAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public SnowKeyIdGenerator snowKeyIdGenerator(final SnowKeyProperties properties) {
        return start(SnowKeyRuntime.get(), properties);
    }

    /**
     * Publishes the settings as the JVM's key generator defaults, then joins their scope. The defaults are JVM-wide
     * because ShardingSphere builds its key generators outside Spring: the context that started last wins.
     */
    static SnowKeyIdGenerator start(final SnowKeyRuntime runtime, final SnowKeyProperties properties) {
        Properties props = SnowKeyPropertyMapping.toProps(properties);
        runtime.setDefaults(props);
        ScopePlan plan;
        try {
            plan = runtime.plan(new Properties(), Optional.empty());
        } catch (final InvalidSettingException ex) {
            // Keep invalid settings away from key generators built later in this JVM.
            runtime.setDefaults(new Properties());
            throw SnowKeyPropertyMapping.translate(ex, properties);
        }
        try {
            return SnowKeyIdGenerator.open(runtime, plan);
        } catch (final InvalidSettingException ex) {
            throw SnowKeyPropertyMapping.translate(ex, properties);
        } catch (final RuntimeException ex) {
            throw new SnowKeyLeaseException("SnowKey could not obtain a worker id during start-up (scope " + plan.scopeKey() + "): " + ex.getMessage(), ex);
        }
    }

    @Bean
    static DataSourcesDependOnSnowKey snowKeyDataSourcesDependOnSnowKey() {
        return new DataSourcesDependOnSnowKey();
    }

    /** Closes the ShardingSphere data sources of {@code jdbc:shardingsphere:} URLs with the context. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = ShardingSphereDriverDataSources.DRIVER_CLASS)
    @ConditionalOnProperty(prefix = "snowkey", name = "close-shardingsphere-driver-data-sources", matchIfMissing = true)
    static class ShardingSphereDriverConfiguration {

        @Bean
        static ShardingSphereDriverUrlRecorder snowKeyShardingSphereDriverUrlRecorder() {
            return new ShardingSphereDriverUrlRecorder();
        }
    }
}
