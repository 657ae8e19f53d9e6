package org.snowkey.spring.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.context.ApplicationContext;
import org.springframework.util.ClassUtils;

/**
 * What these tests need from Spring Boot where Boot 3 and Boot 4 name it differently. The same test classes run on
 * Spring Boot 3 (this module) and on Spring Boot 4 (snowkey-spring-boot4-autoconfigure), so they reach the parts that
 * moved by name, and read health through the methods both generations share.
 */
final class SpringBootGeneration {

    private SpringBootGeneration() {
    }

    /** Every SnowKey auto-configuration registered on this classpath, as an application would load them. */
    static AutoConfigurations snowKey() {
        List<Class<?>> classes = new ArrayList<>();
        for (String each : ImportCandidates.load(AutoConfiguration.class, SpringBootGeneration.class.getClassLoader())) {
            if (each.startsWith("org.snowkey.")) {
                classes.add(load(each));
            }
        }
        return AutoConfigurations.of(classes.toArray(Class<?>[]::new));
    }

    /** Spring Boot's DataSource auto-configuration. */
    static AutoConfigurations dataSource() {
        return AutoConfigurations.of(firstPresent("org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
                "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration"));
    }

    /** Spring Boot's Micrometer auto-configuration with the simple registry. */
    static AutoConfigurations metrics() {
        String boot3 = "org.springframework.boot.actuate.autoconfigure.metrics.";
        String boot4 = "org.springframework.boot.micrometer.metrics.autoconfigure.";
        return AutoConfigurations.of(firstPresent(boot3 + "MetricsAutoConfiguration", boot4 + "MetricsAutoConfiguration"),
                firstPresent(boot3 + "CompositeMeterRegistryAutoConfiguration", boot4 + "CompositeMeterRegistryAutoConfiguration"),
                firstPresent(boot3 + "export.simple.SimpleMetricsExportAutoConfiguration", boot4 + "export.simple.SimpleMetricsExportAutoConfiguration"));
    }

    /** The packages of Spring Boot's health API, of both generations: filtered away, the application has no health API. */
    static String[] healthPackages() {
        return new String[] {"org.springframework.boot.actuate.health", "org.springframework.boot.health"};
    }

    /** What the {@code snowkey} health indicator of the context reports: status code and details. */
    record Health(String status, Map<String, Object> details) {
    }

    /** Calls {@code health()} of the {@code snowkey} indicator as Actuator would, through the API both generations share. */
    @SuppressWarnings("unchecked")
    static Health health(final ApplicationContext context) {
        try {
            Object indicator = context.getBean("snowkeyHealthIndicator");
            Object health = indicator.getClass().getMethod("health").invoke(indicator);
            Object status = health.getClass().getMethod("getStatus").invoke(health);
            String code = (String) status.getClass().getMethod("getCode").invoke(status);
            return new Health(code, (Map<String, Object>) health.getClass().getMethod("getDetails").invoke(health));
        } catch (final ReflectiveOperationException ex) {
            throw new AssertionError("the snowkey health indicator cannot be called", ex);
        }
    }

    private static Class<?> firstPresent(final String... names) {
        for (String each : names) {
            if (ClassUtils.isPresent(each, SpringBootGeneration.class.getClassLoader())) {
                return load(each);
            }
        }
        throw new AssertionError("none of " + String.join(", ", names) + " is on the classpath");
    }

    private static Class<?> load(final String name) {
        try {
            return Class.forName(name, false, SpringBootGeneration.class.getClassLoader());
        } catch (final ClassNotFoundException ex) {
            throw new AssertionError(ex);
        }
    }
}
