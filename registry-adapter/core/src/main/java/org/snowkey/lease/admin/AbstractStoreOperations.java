package org.snowkey.lease.admin;

import java.util.Map;

import org.snowkey.store.StoreKind;
import org.snowkey.store.StoreLibraries;

/**
 * What every store states the same way to {@link LeaseCli}: its {@code --registry} value, its libraries, its options
 * and its secret, fixed when the store's operations are made. A store adds how it is opened and any command of its own.
 */
public abstract class AbstractStoreOperations implements StoreOperations {

    private final StoreKind store;

    private final Map<String, String> options;

    private final Secret secret;

    /**
     * @param store the store; its name is the {@code --registry} value
     * @param options the store's options to the props they set, in usage order (see {@link StoreOperations#optionsInOrder})
     * @param secret the store's secret
     */
    protected AbstractStoreOperations(final StoreKind store, final Map<String, String> options, final Secret secret) {
        this.store = store;
        this.options = options;
        this.secret = secret;
    }

    @Override
    public final String registry() {
        return store.name();
    }

    @Override
    public final StoreLibraries libraries() {
        return store.libraries();
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
