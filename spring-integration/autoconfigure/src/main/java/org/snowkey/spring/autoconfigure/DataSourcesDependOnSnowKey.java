package org.snowkey.spring.autoconfigure;

import javax.sql.DataSource;

import org.snowkey.spring.SnowKeyIdGenerator;
import org.snowkey.spring.SnowKeySegments;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AbstractDependsOnBeanFactoryPostProcessor;

/**
 * Orders the data sources around SnowKey, in both directions of the context's life:
 * <ul>
 *   <li>start-up: the {@link SnowKeyIdGenerator} (which publishes the {@code snowkey.*} defaults and acquires the
 *       lease), the {@code snowkey.segment.*} defaults ({@link SnowKeySegmentDefaults}) and the {@link SnowKeySegments}
 *       bean are created before any DataSource, so ShardingSphere's key generators find the defaults in place;</li>
 *   <li>shutdown: every DataSource is closed first, then the ShardingSphere data sources behind
 *       {@code jdbc:shardingsphere:} URLs ({@link ShardingSphereDriverUrlRecorder}), and only then does the generator
 *       leave the scope and release the lease with the high-water mark of everything that was inserted.</li>
 * </ul>
 * The shutdown order is declared with {@code registerDependentBean}, which only orders destruction and does not
 * create the recorder's dependencies early.
 */
class DataSourcesDependOnSnowKey extends AbstractDependsOnBeanFactoryPostProcessor {

    DataSourcesDependOnSnowKey() {
        super(DataSource.class, SnowKeyIdGenerator.class, SnowKeySegmentDefaults.class, SnowKeySegments.class);
    }

    @Override
    public void postProcessBeanFactory(final ConfigurableListableBeanFactory beanFactory) {
        super.postProcessBeanFactory(beanFactory);
        String[] recorders = beanFactory.getBeanNamesForType(ShardingSphereDriverUrlRecorder.class, true, false);
        for (String recorder : recorders) {
            for (String dataSource : beanFactory.getBeanNamesForType(DataSource.class, true, false)) {
                // The data source is destroyed before the recorder closes what is behind it.
                beanFactory.registerDependentBean(recorder, dataSource);
            }
            for (String generator : beanFactory.getBeanNamesForType(SnowKeyIdGenerator.class, true, false)) {
                // The recorder is destroyed before the generator releases the lease.
                beanFactory.registerDependentBean(generator, recorder);
            }
            for (String segments : beanFactory.getBeanNamesForType(SnowKeySegments.class, true, false)) {
                // And before the segments bean leaves its scope, so the scope closes once, with nothing left issuing.
                beanFactory.registerDependentBean(segments, recorder);
            }
        }
    }
}
