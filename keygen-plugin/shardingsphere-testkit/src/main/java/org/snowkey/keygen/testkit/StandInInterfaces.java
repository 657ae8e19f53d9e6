package org.snowkey.keygen.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The ShardingSphere interfaces snowkey-keygen-plugin ships a stand-in for, and what each copy on a class path declares.
 * Where ShardingSphere has its own copy, whichever comes first on the class path is loaded, so the copies must declare
 * the same (docs/design.md, "ShardingSphere lines").
 */
public final class StandInInterfaces {

    /** The interfaces of ShardingSphere that snowkey-keygen-plugin declares a stand-in for. */
    public static final List<String> NAMES = List.of("org.apache.shardingsphere.infra.instance.ComputeNodeInstanceContextAware");

    private StandInInterfaces() {
    }

    /** Where each copy of the interface on the loader's class path comes from. */
    public static List<URL> copies(final String name, final ClassLoader loader) throws IOException {
        return Collections.list(loader.getResources(name.replace('.', '/') + ".class"));
    }

    /** What each copy declares, by where it comes from; only where a line has a copy of its own (the types it names exist). */
    public static Map<String, String> declarations(final String name, final List<URL> copies, final ClassLoader loader) throws IOException, ClassNotFoundException {
        Map<String, String> result = new TreeMap<>();
        for (URL each : copies) {
            result.put(each.toString(), declared(name, each, loader));
        }
        return result;
    }

    /** True for the copy snowkey-keygen-plugin ships (its jar, or its classes directory in a build). */
    public static boolean isSnowKeys(final URL copy) {
        String url = copy.toString();
        return url.contains("snowkey-keygen-plugin") || url.contains("keygen-plugin/target/classes/");
    }

    /** The copy at {@code url}, defined alone in a loader of its own (its other types come from {@code parent}). */
    private static String declared(final String name, final URL url, final ClassLoader parent) throws IOException, ClassNotFoundException {
        byte[] bytes;
        try (InputStream in = url.openStream()) {
            bytes = in.readAllBytes();
        }
        Class<?> type = new OneClassLoader(parent, name, bytes).loadClass(name);
        List<String> methods = new ArrayList<>();
        for (Method each : type.getDeclaredMethods()) {
            methods.add(java.lang.reflect.Modifier.toString(each.getModifiers()) + " " + each.getReturnType().getName() + " " + each.getName()
                    + Arrays.stream(each.getParameterTypes()).map(Class::getName).toList());
        }
        Collections.sort(methods);
        return java.lang.reflect.Modifier.toString(type.getModifiers()) + " extends " + Arrays.stream(type.getInterfaces()).map(Class::getName).toList()
                + " " + methods + " annotations " + Arrays.toString(type.getDeclaredAnnotations());
    }

    private static final class OneClassLoader extends ClassLoader {

        private final String name;

        private final byte[] bytes;

        private Class<?> defined;

        OneClassLoader(final ClassLoader parent, final String name, final byte[] bytes) {
            super(parent);
            this.name = name;
            this.bytes = bytes;
        }

        @Override
        protected synchronized Class<?> loadClass(final String className, final boolean resolve) throws ClassNotFoundException {
            if (!name.equals(className)) {
                return super.loadClass(className, resolve);
            }
            if (defined == null) {
                defined = defineClass(className, bytes, 0, bytes.length);
            }
            return defined;
        }
    }
}
