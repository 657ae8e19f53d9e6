package org.snowkey.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The third-party libraries a store needs, checked by name before the store is used. A store jar copied without its
 * libraries (a ShardingSphere-Proxy {@code ext-lib/} without them in {@code lib/}, a dependency excluded) would
 * otherwise fail on the first connection with a {@link NoClassDefFoundError} naming a class; start-up (and the
 * operations tool) names the missing artifact instead, for the lease and the segment allocator alike.
 */
public final class StoreLibraries {

    private final Class<?> anchor;

    private final String storeArtifact;

    private final Map<String, String> requiredClasses;

    /**
     * @param anchor a class of the store's jar: the libraries are looked up through its class loader
     * @param storeArtifact the SnowKey artifact of the store, for the message when a library it needs is missing
     * @param classThenArtifact pairs: a class of a third-party library the store needs, then the library's Maven
     *        coordinates; checked in this order
     */
    public StoreLibraries(final Class<?> anchor, final String storeArtifact, final String... classThenArtifact) {
        this.anchor = anchor;
        this.storeArtifact = storeArtifact;
        Map<String, String> required = new LinkedHashMap<>();
        for (int i = 0; i + 1 < classThenArtifact.length; i += 2) {
            required.put(classThenArtifact[i], classThenArtifact[i + 1]);
        }
        this.requiredClasses = Collections.unmodifiableMap(required);
    }

    /**
     * @param setting what chose the store, for the message: {@code lease-registry: jdbc}, {@code segment-allocator: zookeeper}
     * @throws IllegalStateException naming the first missing library's artifact
     */
    public void require(final String setting) {
        ClassLoader loader = anchor.getClassLoader();
        requiredClasses.forEach((className, artifact) -> {
            try {
                Class.forName(className, false, loader);
            } catch (final ClassNotFoundException | LinkageError ex) {
                throw new IllegalStateException("SnowKey " + setting + " needs " + artifact + " on the class path, and it is missing (class "
                        + className + " not found). " + storeArtifact + " declares it optional or provided, so that it never changes the version a host application runs: add " + artifact
                        + " (on ShardingSphere-Proxy, to ext-lib/ unless the Proxy's lib/ has it)", ex);
            }
        });
    }
}
