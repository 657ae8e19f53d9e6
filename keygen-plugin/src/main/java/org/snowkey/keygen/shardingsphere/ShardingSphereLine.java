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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which ShardingSphere line (5.1, ..., 5.5, 5.5.3) runs, and which SnowKey adapters sit on the class path. Line-free:
 * it reads jar metadata, never a ShardingSphere type, so it runs on every line.
 *
 * <p>A line is a set of ShardingSphere versions with one key generator SPI: the minor version up to 5.5.2, then each
 * 5.5 patch from 5.5.3 on, because 5.5.3 moved the SPI in a patch release. Each adapter jar declares its line in
 * {@value #ADAPTER_MARKER}; the check makes an adapter on the wrong ShardingSphere fail at start-up naming both
 * versions, instead of running against an SPI it was not built for. A version newer than every line SnowKey knows
 * is reported as untested ({@link #warning}), never taken for the nearest known line.
 */
public final class ShardingSphereLine {

    private static final Logger LOG = LoggerFactory.getLogger(ShardingSphereLine.class);

    /** The warnings already logged in this JVM: each once, however many key generators and contexts start. */
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    /** The resource every line adapter ships: {@code artifact} and {@code line} (for example {@code 5.4}). */
    public static final String ADAPTER_MARKER = "META-INF/snowkey/shardingsphere-adapter.properties";

    /** The line that {@code snowkey-keygen-plugin} serves by itself: ShardingSphere 5.5.0 to 5.5.2. */
    public static final String PLUGIN_LINE = "5.5";

    /** ShardingSphere 5.5.3, whose key generator SPI moved to {@code org.apache.shardingsphere.infra.algorithm.keygen.spi}. */
    public static final String LINE_5_5_3 = "5.5.3";

    /** The last 5.5 patch that shares the SPI of {@link #PLUGIN_LINE}. */
    private static final int LAST_PLUGIN_LINE_PATCH = 2;

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

    /**
     * The line of a version: {@code 5.4.1} gives {@code 5.4}, {@code 5.5.2} gives {@code 5.5}; from 5.5.3 on each 5.5
     * patch is a line of its own ({@code 5.5.3}, {@code 5.5.4}), since a patch may move the SPI as 5.5.3 did.
     */
    public static String lineOf(final String version) {
        String[] parts = version.split("\\.");
        if (parts.length < 2) {
            return version;
        }
        String minor = parts[0] + "." + parts[1];
        if (PLUGIN_LINE.equals(minor) && parts.length > 2) {
            int patch = leadingNumber(parts[2]);
            if (patch > LAST_PLUGIN_LINE_PATCH) {
                return minor + "." + patch;
            }
        }
        return minor;
    }

    /** How a message names a line: {@code 5.4.x}, {@code 5.5.0 to 5.5.2}, {@code 5.5.3}. */
    public static String describe(final String line) {
        if (PLUGIN_LINE.equals(line)) {
            return "5.5.0 to 5.5." + LAST_PLUGIN_LINE_PATCH;
        }
        return line.split("\\.").length > 2 ? line : line + ".x";
    }

    /** The lines SnowKey supports: 5.5.0 to 5.5.2 through {@code snowkey-keygen-plugin}, the others through an adapter. */
    public static final List<String> SUPPORTED_LINES = List.of("5.1", "5.2", "5.3", "5.4", PLUGIN_LINE, LINE_5_5_3);

    /** The newest line SnowKey was built and tested for. */
    private static final String NEWEST_LINE = LINE_5_5_3;

    /** What a user of that line puts on the class path. */
    public static String artifactFor(final String line) {
        if (isNewerThanKnown(line)) {
            return "no SnowKey artifact: ShardingSphere " + describe(line) + " is untested (SnowKey knows " + describeAll() + ")";
        }
        if (!SUPPORTED_LINES.contains(line)) {
            return "no SnowKey artifact: ShardingSphere " + describe(line) + " is not supported (supported lines: " + describeAll() + ")";
        }
        return PLUGIN_LINE.equals(line) ? "snowkey-keygen-plugin alone" : adapterArtifact(line) + " (with snowkey-keygen-plugin)";
    }

    /** The adapter artifact of a line other than {@link #PLUGIN_LINE}. */
    public static String adapterArtifact(final String line) {
        return "snowkey-keygen-shardingsphere-" + line;
    }

    /** True for a line after the newest SnowKey knows (5.5.4, 5.6, 6.0): untested, not assumed to be like any known line. */
    static boolean isNewerThanKnown(final String line) {
        String[] parts = line.split("\\.");
        String[] newest = NEWEST_LINE.split("\\.");
        for (int i = 0; i < Math.max(parts.length, newest.length); i++) {
            int part = i < parts.length ? leadingNumber(parts[i]) : 0;
            int known = i < newest.length ? Integer.parseInt(newest[i]) : 0;
            if (part != known) {
                return part > known;
            }
        }
        return false;
    }

    private static String describeAll() {
        return String.join(", ", SUPPORTED_LINES.stream().map(ShardingSphereLine::describe).toList());
    }

    /** The digits a version part starts with ({@code 3} for {@code 3-SNAPSHOT}), or -1 when there are none. */
    private static int leadingNumber(final String part) {
        int end = 0;
        while (end < part.length() && end < 9 && Character.isDigit(part.charAt(end))) {
            end++;
        }
        return end == 0 ? -1 : Integer.parseInt(part.substring(0, end));
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
     * Fails when an adapter for another known line sits on the class path; on a line SnowKey does not know, logs
     * that it is untested ({@link #warnOnce}) instead.
     *
     * @param probe any class of the running ShardingSphere
     * @throws IllegalStateException naming the adapter, the line it serves and the running version
     */
    public static void checkAdapters(final Class<?> probe) {
        ClassPath scanned = SCANNED.get(probe);
        scanned.runningVersion().ifPresent(version -> {
            warning(version, scanned.adapters()).ifPresent(ShardingSphereLine::logOnce);
            check(version, scanned.adapters());
        });
    }

    /** What a probe's class loader shows: the running version and the adapters beside it. */
    private record ClassPath(Optional<String> runningVersion, List<Adapter> adapters) {
    }

    /**
     * The class path read once per probe class, hence once per class loader, instead of at every key generator's
     * {@code init()} (ShardingSphere builds every key generator anew at each rule change, and reading every jar's
     * entries was about a tenth of a key generator's start). A class loaded by another loader (an application
     * redeployed in a container, a test's own loader) is another key and is read afresh; the cached value holds
     * strings only, so it keeps no loader alive. A loader whose jars change after its classes loaded is not followed.
     */
    private static final ClassValue<ClassPath> SCANNED = new ClassValue<>() {
        @Override
        protected ClassPath computeValue(final Class<?> probe) {
            Optional<String> running = runningVersion(probe);
            return new ClassPath(running, running.isPresent() ? List.copyOf(adapters(loaderOf(probe))) : List.of());
        }
    };

    /** The check itself, on given inputs. An untested newer line is not failed here: {@link #warning} reports it. */
    static void check(final String runningVersion, final List<Adapter> adapters) {
        String running = lineOf(runningVersion);
        if (isNewerThanKnown(running)) {
            return;
        }
        for (Adapter each : adapters) {
            if (!each.line().equals(running)) {
                throw new IllegalStateException("SnowKey adapter " + each.artifact() + " is built for ShardingSphere " + describe(each.line())
                        + ", but this application runs ShardingSphere " + runningVersion + ": remove it and use " + artifactFor(running)
                        + " (README, 'ShardingSphere versions')");
            }
        }
    }

    /**
     * Logs at WARN, once per JVM, what {@link #warning} says about the running ShardingSphere: called where SnowKey's
     * code runs on every 5.5 patch whether or not its key generators load (the lifecycle listener), and at each
     * key generator's {@code init()}.
     *
     * @param probe any class of the running ShardingSphere
     * @return the warning about this ShardingSphere, logged now or earlier in this JVM; empty when there is none
     */
    public static Optional<String> warnOnce(final Class<?> probe) {
        ClassPath scanned = SCANNED.get(probe);
        Optional<String> result = scanned.runningVersion().flatMap(version -> warning(version, scanned.adapters()));
        result.ifPresent(ShardingSphereLine::logOnce);
        return result;
    }

    /**
     * What the user must hear about the running ShardingSphere, if anything: a line SnowKey serves only through an
     * adapter that is missing (ShardingSphere then fails every rule naming the type, {@code SPI-00001}), or a line
     * newer than every line SnowKey knows.
     */
    static Optional<String> warning(final String runningVersion, final List<Adapter> adapters) {
        String running = lineOf(runningVersion);
        if (isNewerThanKnown(running)) {
            return Optional.of("SnowKey: ShardingSphere " + runningVersion + " is a line SnowKey has not been tested on (it knows " + describeAll()
                    + "). Its key generator SPI may have moved, as 5.5.3 moved it; if ShardingSphere reports 'SPI-00001' for type IMPROVED_SNOWFLAKE"
                    + " or SNOWKEY_SEGMENT, no SnowKey jar on the class path implements it. Adapters present: "
                    + (adapters.isEmpty() ? "none" : adapters.stream().map(Adapter::artifact).toList()) + " (README, 'ShardingSphere versions')");
        }
        boolean served = PLUGIN_LINE.equals(running) || adapters.stream().anyMatch(each -> each.line().equals(running));
        if (served || !SUPPORTED_LINES.contains(running) || !running.startsWith(PLUGIN_LINE)) {
            // Lines before 5.5 are explained by the lifecycle listener, which those lines call with other methods.
            return Optional.empty();
        }
        return Optional.of("SnowKey: this is ShardingSphere " + runningVersion + ", whose key generator SPI snowkey-keygen-plugin does not implement by itself:"
                + " IMPROVED_SNOWFLAKE and SNOWKEY_SEGMENT are not registered and ShardingSphere fails every rule that names them ('SPI-00001')."
                + " Add " + adapterArtifact(running) + " next to snowkey-keygen-plugin (README, 'ShardingSphere versions')");
    }

    private static void logOnce(final String warning) {
        if (WARNED.add(warning)) {
            LOG.warn(warning);
        }
    }

    private static ClassLoader loaderOf(final Class<?> probe) {
        return probe.getClassLoader() == null ? ClassLoader.getSystemClassLoader() : probe.getClassLoader();
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
