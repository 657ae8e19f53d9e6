package org.snowkey.spring.actuate;

import org.snowkey.keygen.config.Redactor;
import org.snowkey.keygen.config.SettingText;
import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;

/**
 * Keeps SnowKey's secrets out of Spring's own {@code /actuator/env} and {@code /actuator/configprops}. Spring Boot
 * shows every value there once {@code show-values} is {@code always} (or {@code when-authorized} for an authorized
 * caller) and no longer masks by key name; an operator who turns that on to debug another setting would publish
 * the lease database's password and the ZooKeeper digest. Under {@code snowkey.*}, a secret-named property
 * ({@code password}, {@code digest}, ...) is masked whole and any other text value loses the credentials of the URLs
 * in it (a JDBC URL may carry {@code user:password@} or {@code password=}); other properties pass untouched.
 */
public final class SnowKeySanitizingFunction implements SanitizingFunction {

    private static final String PREFIX = "snowkey.";

    @Override
    public SanitizableData apply(final SanitizableData data) {
        String key = data.getLowerCaseKey();
        if (key == null || !key.startsWith(PREFIX) || data.getValue() == null) {
            return data;
        }
        String name = key.substring(key.lastIndexOf('.') + 1);
        if (SettingText.isSecretName(name)) {
            return data.withSanitizedValue();
        }
        if (data.getValue() instanceof CharSequence text) {
            String cleaned = Redactor.URLS_ONLY.clean(text.toString());
            return cleaned.equals(text.toString()) ? data : data.withValue(cleaned);
        }
        return data;
    }
}
