package org.snowkey.keygen.shardingsphere;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * Which ShardingSphere line (5.1, ..., 5.5) runs, and which SnowKey adapters sit on the class path. Line-free: it
 * reads jar metadata, never a ShardingSphere type, so it runs on every line.
 *
 * <p>Each adapter jar declares its line in {@value #ADAPTER_MARKER}; the check makes an adapter on the wrong
 * ShardingSphere fail at start-up naming both versions, instead of running against an SPI it was not built for.
 */
public final class ShardingSphereLine {

    /** The resource every line adapter ships: {@code artifact} and {@code line} (for example {@code 5.4}). */
    public static final String ADAPTER_MARKER = "META-INF/snowkey/shardingsphere-adapter.properties";

    /** The line that {@code snowkey-keygen-plugin} serves by itself. */
    public static final String PLUGIN_LINE = "5.5";

    private static final String INFRA_COMMON_POM = "META-INF/maven/org.apache.shardingsphere/shardingsphere-infra-common/pom.properties";

    private ShardingSphereLine() {
    }

    /** An adapter jar found on the class path. */
    public record Adapter(String artifact, String line) {
    }

    /**
     * The running ShardingSphere version, such as {@code 5.4.1}: from the Maven metadata of
     * {@code shardingsphere-infra-common} (present on every line), else from the manifest of the probe's jar.
     *
     * @param probe any class of the running ShardingSphere
     */
    public static Optional<String> runningVersion(final Class<?> probe) {
        ClassLoader loader = probe.getClassLoader();
        URL pom = loader == null ? null : loader.getResource(INFRA_COMMON_POM);
        if (pom != null) {
            Properties props = load(pom);
            String version = props.getProperty("version");
            if (version != null && !version.isBlank()) {
                return Optional.of(version.trim());
            }
        }
        Package pkg = probe.getPackage();
        return Optional.ofNullable(pkg == null ? null : pkg.getImplementationVersion());
    }

    /** The line of a version: {@code 5.4.1} gives {@code 5.4}. */
    public static String lineOf(final String version) {
        String[] parts = version.split("\\.");
        return parts.length < 2 ? version : parts[0] + "." + parts[1];
    }

    /** The lines SnowKey supports: 5.5 through {@code snowkey-keygen-plugin}, the others through an adapter. */
    public static final List<String> SUPPORTED_LINES = List.of("5.1", "5.2", "5.3", "5.4", PLUGIN_LINE);

    /** What a user of that line puts on the class path. */
    public static String artifactFor(final String line) {
        if (!SUPPORTED_LINES.contains(line)) {
            return "no SnowKey artifact: ShardingSphere " + line + ".x is not supported (supported lines: " + SUPPORTED_LINES + ")";
        }
        return PLUGIN_LINE.equals(line) ? "snowkey-keygen-plugin alone" : "snowkey-keygen-shardingsphere-" + line + " (with snowkey-keygen-plugin)";
    }

    /** The adapters on the class path of {@code loader}. */
    public static List<Adapter> adapters(final ClassLoader loader) {
        List<Adapter> result = new ArrayList<>();
        try {
            Enumeration<URL> markers = loader.getResources(ADAPTER_MARKER);
            while (markers.hasMoreElements()) {
                Properties props = load(markers.nextElement());
                result.add(new Adapter(props.getProperty("artifact", "(unnamed adapter)"), props.getProperty("line", "(no line)")));
            }
        } catch (final IOException ex) {
            throw new UncheckedIOException("SnowKey could not read " + ADAPTER_MARKER, ex);
        }
        return result;
    }

    /**
     * Fails when an adapter for another line sits on the class path.
     *
     * @param probe any class of the running ShardingSphere
     * @throws IllegalStateException naming the adapter, the line it serves and the running version
     */
    public static void checkAdapters(final Class<?> probe) {
        Optional<String> running = runningVersion(probe);
        ClassLoader loader = probe.getClassLoader() == null ? ClassLoader.getSystemClassLoader() : probe.getClassLoader();
        running.ifPresent(version -> check(version, adapters(loader)));
    }

    /** The check itself, on given inputs. */
    static void check(final String runningVersion, final List<Adapter> adapters) {
        String running = lineOf(runningVersion);
        for (Adapter each : adapters) {
            if (!each.line().equals(running)) {
                throw new IllegalStateException("SnowKey adapter " + each.artifact() + " is built for ShardingSphere " + each.line()
                        + ".x, but this application runs ShardingSphere " + runningVersion + ": remove it and use " + artifactFor(running)
                        + " (README, 'ShardingSphere versions')");
            }
        }
    }

    private static Properties load(final URL url) {
        Properties props = new Properties();
        try (InputStream in = url.openStream()) {
            props.load(in);
        } catch (final IOException ex) {
            throw new UncheckedIOException("SnowKey could not read " + url, ex);
        }
        return props;
    }
}
