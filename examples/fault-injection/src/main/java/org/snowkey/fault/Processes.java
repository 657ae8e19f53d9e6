package org.snowkey.fault;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Every process the experiment starts, so that all of them die with it: at the end of a run, on failure, and from a
 * shutdown hook if the runner itself is stopped. Also sends SIGSTOP and SIGCONT ({@code kill -STOP/-CONT <pid>}).
 */
public final class Processes implements AutoCloseable {

    private final List<Process> started = new ArrayList<>();

    private final Thread hook = new Thread(this::killAll, "snowkey-fault-cleanup");

    public Processes() {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** The java command with this JVM's class path (the test class path under Surefire). */
    public static List<String> javaCommand(final String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:+UseSerialGC");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-Xss512k");
        command.add("-cp");
        command.add(classPath());
        command.addAll(List.of(arguments));
        return command;
    }

    private static String classPath;

    /**
     * This JVM's class path, with the SnowKey jars of the local Maven repository copied aside first: other builds on a
     * shared machine re-install them while a long run goes on, and a JVM whose jar is rewritten under it fails to load
     * its next class.
     */
    static synchronized String classPath() {
        if (classPath == null) {
            String original = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            StringBuilder result = new StringBuilder();
            try {
                Path snapshot = Files.createTempDirectory("snowkey-fault-classpath-");
                // Registered first, deleted last (after the jars in it).
                snapshot.toFile().deleteOnExit();
                for (String entry : original.split(File.pathSeparator)) {
                    String path = entry;
                    if (entry.replace('\\', '/').contains("/org/snowkey/") && entry.endsWith(".jar") && Files.isRegularFile(Path.of(entry))) {
                        Path copy = snapshot.resolve(Path.of(entry).getFileName());
                        Files.copy(Path.of(entry), copy, StandardCopyOption.REPLACE_EXISTING);
                        copy.toFile().deleteOnExit();
                        path = copy.toString();
                    }
                    result.append(result.length() == 0 ? "" : File.pathSeparator).append(path);
                }
            } catch (final IOException ex) {
                return original;
            }
            classPath = result.toString();
        }
        return classPath;
    }

    public synchronized Process start(final ProcessBuilder builder) throws IOException {
        Process process = builder.start();
        started.add(process);
        return process;
    }

    public static void signal(final Process process, final String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).redirectErrorStream(true).start();
            kill.getInputStream().readAllBytes();
            kill.waitFor(10, TimeUnit.SECONDS);
        } catch (final IOException ex) {
            throw new IllegalStateException("cannot send SIG" + signal + " to " + process.pid(), ex);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGCONT (a stopped process ignores everything else but SIGKILL), then SIGKILL, for every live process. */
    public synchronized void killAll() {
        for (Process each : started) {
            if (each.isAlive()) {
                signal(each, "CONT");
                each.destroyForcibly();
            }
        }
        for (Process each : started) {
            try {
                each.waitFor(10, TimeUnit.SECONDS);
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        killAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (final IllegalStateException shuttingDown) {
            // The hook runs anyway.
        }
    }
}
