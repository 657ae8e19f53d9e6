package org.snowkey.lease.endtoend;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.runtime.SnowflakePlan;
import org.snowkey.keygen.runtime.SnowflakePlanner;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.lease.testing.TestScope;

/**
 * Every prop, with random strings, numbers out of range, empty values and unicode, through
 * {@code SnowflakePlanner.plan(...)} and the lease providers' validation: a plan, or an {@link InvalidSettingException}
 * whose message names the prop; never another exception. Plans without a registry (static worker id) are also
 * opened and asked for ids, which must be strictly increasing and unique.
 */
class PropsFuzzTest {

    private static final List<String> PROPS = List.of("worker-id", "worker-id-bits", "sequence-low-bits", "epoch", "max-tolerate-time-difference-milliseconds",
            "sequence-scope", "max-time-cache-milliseconds", "lease-registry", "lease-pool", "lease-duration-milliseconds", "lease-acquire-timeout-milliseconds",
            "instance-id", "zookeeper-server-lists", "zookeeper-namespace", "zookeeper-digest", "jdbc-url", "jdbc-username", "jdbc-password", "jdbc-table",
            "jdbc-create-table");

    private static final List<String> VALUES = List.of("", " ", "0", "1", "-1", "5", "13", "21", "22", "63", "64", "65536", "2147483647", "2147483648",
            "-2147483649", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "1e3", "0x10", "1.5", "NaN", "true", "false", "TRUE",
            "zookeeper", "ZooKeeper", "jdbc", "JDBC", "etcd", "nacos", "global", "table", "GLOBAL", "2025-01-01T00:00:00Z", "1970-01-01T00:00:00Z",
            "2200-01-01T00:00:00Z", "2025-13-01", "1735689600000", "127.0.0.1:2181", "127.0.0.1:0", "127.0.0.1:65536", "[::1]:2181", "host", ":2181",
            "127.0.0.1:2181,", "jdbc:", "jdbc:postgresql://127.0.0.1:1/none", "jdbc:h2:mem:x", "user:", ":pw", "u:p", "a.b", "..", ".", "/", "a/b",
            "\u00e9\u4e2d\ud83d\ude00", "\u0000", "\n", "x".repeat(300), "x".repeat(70_000), "drop table x;--", "${user.home}");

    @Test
    void everyPropIsValidatedWithAMessageNamingIt() {
        Random random = new Random(99L);
        SnowflakeRuntime runtime = SnowflakeRuntime.get();
        int planned = 0;
        int rejected = 0;
        List<Long> issued = new ArrayList<>();
        for (int i = 0; i < TestScope.fuzzCases(20_000); i++) {
            Properties props = new Properties();
            int count = 1 + random.nextInt(5);
            for (int p = 0; p < count; p++) {
                props.setProperty(PROPS.get(random.nextInt(PROPS.size())), value(random));
            }
            // Some cases are otherwise valid, so that deeper validation is reached.
            if (random.nextBoolean()) {
                props.putIfAbsent("lease-registry", random.nextBoolean() ? "zookeeper" : "jdbc");
                // Only the chosen backend's required prop: the other backend's props cannot apply and are rejected.
                if ("zookeeper".equals(props.get("lease-registry"))) {
                    props.putIfAbsent("zookeeper-server-lists", "127.0.0.1:2181");
                } else {
                    props.putIfAbsent("jdbc-url", "jdbc:postgresql://127.0.0.1:5432/test");
                }
            }
            SnowflakePlan plan;
            try {
                plan = SnowflakePlanner.get().plan(props, Optional.empty());
            } catch (final InvalidSettingException ex) {
                rejected++;
                assertFalse(ex.getMessage() == null || ex.getMessage().isBlank(), "an empty message for " + props);
                assertTrue(ex.getMessage().contains(ex.property()), "the message names the prop " + ex.property() + ": " + ex.getMessage());
                continue;
            } catch (final RuntimeException ex) {
                fail("not an InvalidSettingException for " + abbreviate(props), ex);
                return;
            }
            planned++;
            if (!props.containsKey("lease-registry")) {
                // A static worker id: open it and issue a few ids (no I/O).
                IdGenerator generator = runtime.generator(plan, this);
                try {
                    long previous = Long.MIN_VALUE;
                    for (int n = 0; n < 3; n++) {
                        long id = generator.nextId();
                        assertTrue(id > previous && id > 0, "ids increase and are positive for " + abbreviate(props) + ": " + previous + ", " + id);
                        previous = id;
                    }
                } catch (final RuntimeException ex) {
                    // The clock-related settings may legitimately refuse to issue (e.g. an epoch in the future): a message, not a wrong id.
                    assertFalse(ex.getMessage() == null || ex.getMessage().isBlank(), ex.toString());
                } finally {
                    runtime.release(this);
                }
            }
        }
        System.out.printf("props fuzz: %d plans, %d rejected with InvalidSettingException%n", planned, rejected);
        assertTrue(planned > 0 && rejected > 0);
    }

    private static String value(final Random random) {
        if (random.nextInt(4) == 0) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(12);
            for (int i = 0; i < length; i++) {
                text.append((char) (random.nextBoolean() ? 32 + random.nextInt(95) : random.nextInt(0xD800)));
            }
            return text.toString();
        }
        if (random.nextInt(4) == 0) {
            return Long.toString(random.nextLong() >> random.nextInt(64));
        }
        return VALUES.get(random.nextInt(VALUES.size()));
    }

    private static String abbreviate(final Properties props) {
        String text = props.toString();
        return text.length() > 500 ? text.substring(0, 500) + "..." : text;
    }
}
