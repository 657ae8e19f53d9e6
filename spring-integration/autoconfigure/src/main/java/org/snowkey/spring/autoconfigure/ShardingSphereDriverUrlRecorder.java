package org.snowkey.spring.autoconfigure;

import javax.sql.DataSource;

import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeansException;
import org.springframework.beans.PropertyAccessorFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Notes the {@code jdbc:shardingsphere:} URL of each DataSource bean of the context (HikariCP's {@code jdbcUrl}, or a
 * {@code url} property as most pools and Spring's driver data sources have), so that the context can close the
 * ShardingSphere data sources behind them when it closes.
 *
 * <p>Its own destruction closes them: the data source beans depend on it (see {@link DataSourcesDependOnSnowKey}),
 * so it goes after their pools have closed and before the {@code SnowKeyIdGenerator} it depends on leaves the scope.
 */
public class ShardingSphereDriverUrlRecorder implements BeanPostProcessor, DisposableBean {

    @Override
    public Object postProcessAfterInitialization(final Object bean, final String beanName) {
        if (bean instanceof DataSource) {
            String url = urlOf(bean);
            if (url != null && url.startsWith(ShardingSphereDriverDataSources.URL_PREFIX)) {
                ShardingSphereDriverDataSources.use(url, this);
            }
        }
        return bean;
    }

    private static String urlOf(final Object dataSource) {
        BeanWrapper wrapper = PropertyAccessorFactory.forBeanPropertyAccess(dataSource);
        for (String each : new String[] {"jdbcUrl", "url"}) {
            try {
                if (wrapper.isReadableProperty(each) && wrapper.getPropertyValue(each) instanceof String url) {
                    return url;
                }
            } catch (final BeansException ex) {
                // A pool whose getter fails is not one this recorder can help with: leave it alone.
                return null;
            }
        }
        return null;
    }

    @Override
    public void destroy() {
        ShardingSphereDriverDataSources.leave(this);
    }
}
