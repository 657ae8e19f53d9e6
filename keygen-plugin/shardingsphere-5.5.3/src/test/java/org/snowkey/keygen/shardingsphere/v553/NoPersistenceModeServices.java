package org.snowkey.keygen.shardingsphere.v553;

import org.apache.shardingsphere.mode.metadata.manager.MetaDataContextManager;
import org.apache.shardingsphere.mode.persist.mode.ModePersistServiceFacade;
import org.apache.shardingsphere.mode.persist.mode.ModePersistServiceFacadeBuilder;
import org.apache.shardingsphere.mode.persist.service.ComputeNodePersistService;
import org.apache.shardingsphere.mode.persist.service.MetaDataManagerPersistService;
import org.apache.shardingsphere.mode.persist.service.ProcessPersistService;
import org.apache.shardingsphere.mode.spi.repository.PersistRepository;

/**
 * Test only: the Standalone mode services that 5.5.3's {@code ContextManager} looks up by type while it is built, whose
 * jar (shardingsphere-standalone-mode-core) is not served here. The listener test never reaches them: it builds and
 * closes a context manager of no databases, which is what it needs from 5.5.3 (its real listener calls).
 */
public final class NoPersistenceModeServices implements ModePersistServiceFacadeBuilder {

    @Override
    public ModePersistServiceFacade build(final MetaDataContextManager metaDataContextManager, final PersistRepository repository) {
        return new ModePersistServiceFacade() {

            @Override
            public MetaDataManagerPersistService getMetaDataManagerService() {
                throw new UnsupportedOperationException("no Standalone mode services in this test");
            }

            @Override
            public ComputeNodePersistService getComputeNodeService() {
                throw new UnsupportedOperationException("no Standalone mode services in this test");
            }

            @Override
            public ProcessPersistService getProcessService() {
                throw new UnsupportedOperationException("no Standalone mode services in this test");
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public Object getType() {
        return "Standalone";
    }
}
