package org.snowkey.spring.autoconfigure;

import java.lang.reflect.Field;
import java.sql.Driver;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ShardingSphere data sources that {@code jdbc:shardingsphere:} URLs open. ShardingSphereDriver caches one per URL
 * for the life of the JVM and nothing ever closes it: a connection pool on such a URL only closes connections. So
 * the ShardingSphere context (and its hold on the SnowKey lease) would outlive the Spring context, and a later
 * context in the same JVM would get the stale one. Each Spring context registers the URLs its data sources use;
 * when the last context using a URL closes, its cached data source is evicted and closed.
 *
 * <p>ShardingSphere 5.5.2 keeps the cache in a private field of the driver: read by reflection, and if that ever
 * fails the data source is left to the JVM shutdown hook with a warning (the lease then stays held, which is safe).
 */
public final class ShardingSphereDriverDataSources {

    public static final String URL_PREFIX = "jdbc:shardingsphere:";

    static final String DRIVER_CLASS = "org.apache.shardingsphere.driver.ShardingSphereDriver";

    private static final Logger LOG = LoggerFactory.getLogger(ShardingSphereDriverDataSources.class);

    /** URL to the Spring contexts (their tokens) using it; guarded by itself. */
    private static final Map<String, Set<Object>> USERS = new HashMap<>();

    private ShardingSphereDriverDataSources() {
    }

    /** Records that {@code user} (one per Spring context) opens {@code url}. */
    public static void use(final String url, final Object user) {
        synchronized (USERS) {
            USERS.computeIfAbsent(url, key -> Collections.newSetFromMap(new IdentityHashMap<>())).add(user);
        }
    }

    /** {@code user} is gone: closes the cached data source of every URL nobody else uses. */
    public static void leave(final Object user) {
        List<String> orphaned = new ArrayList<>();
        synchronized (USERS) {
            USERS.forEach((url, users) -> {
                if (users.remove(user) && users.isEmpty()) {
                    orphaned.add(url);
                }
            });
            orphaned.forEach(USERS::remove);
        }
        orphaned.forEach(ShardingSphereDriverDataSources::close);
    }

    /** Evicts the data source of {@code url} from every ShardingSphere driver's cache and closes it. */
    static void close(final String url) {
        for (Driver each : Collections.list(DriverManager.getDrivers())) {
            if (!DRIVER_CLASS.equals(each.getClass().getName())) {
                continue;
            }
            try {
                DataSource dataSource = cacheOf(each).remove(url);
                if (dataSource instanceof AutoCloseable closeable) {
                    closeable.close();
                    LOG.info("Closed the ShardingSphere data source of {}", url);
                }
            } catch (final Exception ex) {
                LOG.warn("Could not close the ShardingSphere data source of {} ({}); its SnowKey lease is released at JVM exit", url, ex.toString());
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, DataSource> cacheOf(final Driver driver) throws ReflectiveOperationException {
        Field field = driver.getClass().getDeclaredField("dataSourceCache");
        field.setAccessible(true);
        Object cache = field.get(driver);
        return (Map<String, DataSource>) cache.getClass().getMethod("getDataSourceMap").invoke(cache);
    }
}
