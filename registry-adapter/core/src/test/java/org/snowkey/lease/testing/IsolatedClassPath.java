package org.snowkey.lease.testing;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The test class path without some jars, in a class loader of its own (its parent is the platform loader, so no class
 * of the test's own loader leaks in): how a store behaves when a library it needs was left out.
 */
public final class IsolatedClassPath {

    private IsolatedClassPath() {
    }

    /**
     * Calls {@code probe.method()} (static, no arguments, returns a String) as loaded from the class path without the
     * entries whose path contains any of {@code leftOut}.
     */
    public static String call(final Class<?> probe, final String method, final String... leftOut) throws Exception {
        try (URLClassLoader loader = new URLClassLoader(urlsWithout(leftOut), ClassLoader.getPlatformClassLoader())) {
            try {
                return (String) loader.loadClass(probe.getName()).getMethod(method).invoke(null);
            } catch (final InvocationTargetException ex) {
                throw ex.getCause() instanceof Exception cause ? cause : ex;
            }
        }
    }

    private static URL[] urlsWithout(final String... leftOut) throws MalformedURLException {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<URL> result = new ArrayList<>();
        int omitted = 0;
        for (String each : classPath.split(File.pathSeparator)) {
            String normalised = each.replace(File.separatorChar, '/');
            if (List.of(leftOut).stream().anyMatch(normalised::contains)) {
                omitted++;
            } else if (!each.isEmpty()) {
                result.add(Path.of(each).toUri().toURL());
            }
        }
        if (omitted == 0) {
            throw new IllegalStateException("nothing on the class path matches " + List.of(leftOut) + ": the test would prove nothing");
        }
        return result.toArray(URL[]::new);
    }
}
