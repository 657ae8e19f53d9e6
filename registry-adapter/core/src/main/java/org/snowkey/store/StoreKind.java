package org.snowkey.store;

import java.util.Set;

/**
 * One store as its lease provider, segment allocator provider and operations name it: the one value that chooses it
 * ({@code lease-registry}, {@code segment-allocator}, {@code LeaseCli --registry}), its own props, and the third-party
 * libraries it needs.
 *
 * @param name the value that chooses the store, e.g. {@code jdbc}
 * @param propertyNames the store's own props, the same for the lease and the segment allocator
 * @param libraries the third-party libraries the store needs
 */
public record StoreKind(String name, Set<String> propertyNames, StoreLibraries libraries) {

    /**
     * Names the first missing library's artifact.
     *
     * @param setting the setting that chose the store, e.g. {@code lease-registry}: the message says {@code lease-registry: jdbc}
     * @throws IllegalStateException naming the first missing library's artifact
     */
    public void requireLibraries(final String setting) {
        libraries.require(setting + ": " + name);
    }
}
