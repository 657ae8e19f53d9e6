package org.snowkey.lease.admin;

import java.util.Map;

import org.snowkey.store.StoreLibraries;

/**
 * What every store states the same way to {@link LeaseCli}: its {@code --registry} value, its libraries, its options
 * and its secret, fixed when the store's operations are made. A store adds how it is opened and any command of its own.
 */
public abstract class AbstractStoreOperations implements StoreOperations {

    private final String registry;

    private final StoreLibraries libraries;

    private final Map<String, String> options;

    private final Secret secret;

    /**
     * @param registry the {@code --registry} value, the store's {@code lease-registry} value
     * @param libraries the third-party libraries the store needs
     * @param options the store's options to the props they set, in usage order (see {@link StoreOperations#optionsInOrder})
     * @param secret the store's secret
     */
    protected AbstractStoreOperations(final String registry, final StoreLibraries libraries, final Map<String, String> options, final Secret secret) {
        this.registry = registry;
        this.libraries = libraries;
        this.options = options;
        this.secret = secret;
    }

    @Override
    public final String registry() {
        return registry;
    }

    @Override
    public final StoreLibraries libraries() {
        return libraries;
    }

    @Override
    public final Map<String, String> options() {
        return options;
    }

    @Override
    public final Secret secret() {
        return secret;
    }
}
