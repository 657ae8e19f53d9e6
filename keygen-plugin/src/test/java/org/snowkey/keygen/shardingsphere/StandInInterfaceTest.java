package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.apache.shardingsphere.infra.instance.ComputeNodeInstanceContextAware;
import org.junit.jupiter.api.Test;

/**
 * The stand-in {@code ComputeNodeInstanceContextAware} that snowkey-keygen-plugin ships declares exactly what
 * ShardingSphere 5.5.2's own copy declares: with both on a class path either may load. (Every line's LineContract
 * checks the copies on that line's class path the same way, 5.5.1 included.)
 */
class StandInInterfaceTest {

    private static final String NAME = ComputeNodeInstanceContextAware.class.getName();

    @Test
    void theStandInDeclaresWhatShardingSpheresOwnCopyDeclares() throws Exception {
        List<URL> copies = Collections.list(getClass().getClassLoader().getResources(NAME.replace('.', '/') + ".class"));
        assertEquals(2, copies.size(), "SnowKey's stand-in and ShardingSphere 5.5.2's own: " + copies);
        URL shardingSpheres = copies.stream().filter(each -> each.toString().contains("shardingsphere-infra-common")).findFirst().orElseThrow();
        URL snowKeys = copies.stream().filter(each -> !each.equals(shardingSpheres)).findFirst().orElseThrow();
        assertTrue(snowKeys.toString().contains("keygen-plugin"), snowKeys.toString());
        assertEquals(declared(shardingSpheres), declared(snowKeys));
    }

    /** What the copy at {@code url} declares, defined alone in a loader of its own. */
    private String declared(final URL url) throws Exception {
        byte[] bytes;
        try (InputStream in = url.openStream()) {
            bytes = in.readAllBytes();
        }
        Class<?> type = new ClassLoader(getClass().getClassLoader()) {

            private Class<?> defined;

            @Override
            protected synchronized Class<?> loadClass(final String name, final boolean resolve) throws ClassNotFoundException {
                if (!NAME.equals(name)) {
                    return super.loadClass(name, resolve);
                }
                if (defined == null) {
                    defined = defineClass(name, bytes, 0, bytes.length);
                }
                return defined;
            }
        }.loadClass(NAME);
        List<String> methods = Arrays.stream(type.getDeclaredMethods()).map(StandInInterfaceTest::describe).sorted().toList();
        return Modifier.toString(type.getModifiers()) + " " + Arrays.toString(type.getInterfaces()) + " " + methods + " " + Arrays.toString(type.getDeclaredAnnotations());
    }

    private static String describe(final Method method) {
        return Modifier.toString(method.getModifiers()) + " " + method.getReturnType().getName() + " " + method.getName() + Arrays.toString(method.getParameterTypes());
    }
}
