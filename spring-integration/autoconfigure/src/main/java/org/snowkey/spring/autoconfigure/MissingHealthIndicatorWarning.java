package org.snowkey.spring.autoconfigure;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.SpringBootVersion;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Says at start-up why an application with Actuator has no {@code snowkey} health component, instead of letting it go
 * silently missing. Each Spring Boot generation has its own health API and so its own SnowKey auto-configuration;
 * when neither applied (a Boot generation SnowKey does not know, a missing jar, an excluded auto-configuration) the
 * warning names the cause. Nothing is logged when the indicator is switched off on purpose.
 */
final class MissingHealthIndicatorWarning implements SmartInitializingSingleton {

    /** The bean both generations register; Actuator names the component after it: {@code snowkey}. */
    static final String BEAN_NAME = "snowkeyHealthIndicator";

    static final String BOOT3_HEALTH_API = "org.springframework.boot.actuate.health.HealthIndicator";

    static final String BOOT4_HEALTH_API = "org.springframework.boot.health.contributor.HealthIndicator";

    static final String BOOT4_CONFIGURATION = "org.snowkey.spring.boot4.SnowKeyBoot4HealthAutoConfiguration";

    private static final Logger LOG = LoggerFactory.getLogger(MissingHealthIndicatorWarning.class);

    private final ListableBeanFactory beanFactory;

    private final Environment environment;

    private final ClassLoader classLoader;

    MissingHealthIndicatorWarning(final ListableBeanFactory beanFactory, final Environment environment, final ClassLoader classLoader) {
        this.beanFactory = beanFactory;
        this.environment = environment;
        this.classLoader = classLoader;
    }

    @Override
    public void afterSingletonsInstantiated() {
        String reason = reason();
        if (reason != null) {
            LOG.warn("No 'snowkey' health component in /actuator/health: {}", reason);
        }
    }

    /** Why the indicator is missing, or null when it is there or switched off on purpose. */
    String reason() {
        if (beanFactory.containsBean(BEAN_NAME) || !enabled()) {
            return null;
        }
        String boot = "Spring Boot " + SpringBootVersion.getVersion();
        if (present(BOOT4_HEALTH_API)) {
            if (!present(BOOT4_CONFIGURATION)) {
                return boot + " keeps its health API in org.springframework.boot.health.contributor, which SnowKey supports through "
                        + "org.snowkey:snowkey-spring-boot4-autoconfigure; add it (org.snowkey:snowkey-spring-boot-starter brings it).";
            }
            return "SnowKeyBoot4HealthAutoConfiguration did not apply on " + boot + " (excluded?); start with --debug to see why.";
        }
        if (present(BOOT3_HEALTH_API)) {
            return "SnowKeyHealthAutoConfiguration did not apply on " + boot + " (excluded?); start with --debug to see why.";
        }
        return boot + " has neither health API SnowKey supports (org.springframework.boot.actuate.health of Spring Boot 3, "
                + "org.springframework.boot.health.contributor of Spring Boot 4 in spring-boot-health). SnowKey is tested on Spring Boot "
                + "3.5.7 and 4.0.7; the snowkey endpoint and meters work without it.";
    }

    /** As Actuator decides it: management.health.snowkey.enabled, else management.health.defaults.enabled. */
    private boolean enabled() {
        Boolean own = environment.getProperty("management.health.snowkey.enabled", Boolean.class);
        return own != null ? own : environment.getProperty("management.health.defaults.enabled", Boolean.class, true);
    }

    private boolean present(final String className) {
        return ClassUtils.isPresent(className, classLoader);
    }
}
