package org.snowkey.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** URLs go into messages and scope keys only after their credentials are stripped. */
class JdbcUrlsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "jdbc:postgresql://127.0.0.1:5432/test|jdbc:postgresql://127.0.0.1:5432/test",
            "jdbc:postgresql://db/test?user=app&password=s3cret&ssl=true|jdbc:postgresql://db/test?ssl=true",
            "jdbc:postgresql://db/test?ssl=true&password=s3cret|jdbc:postgresql://db/test?ssl=true",
            "jdbc:postgresql://db/test?password=s3cret|jdbc:postgresql://db/test",
            "jdbc:mysql://app:s3cret@db:3306/test?useSSL=false|jdbc:mysql://db:3306/test?useSSL=false",
            "jdbc:mariadb://db:3306/test?sslPassword=s3cret&connectTimeout=1000|jdbc:mariadb://db:3306/test?connectTimeout=1000",
            "jdbc:mariadb://address=(host=db)(port=3306)(user=app)(password=s3cret)/test|jdbc:mariadb://address=(host=db)(port=3306)/test",
            "jdbc:h2:mem:x;DB_CLOSE_DELAY=-1;USER=sa;PASSWORD=s3cret;MODE=MySQL|jdbc:h2:mem:x;DB_CLOSE_DELAY=-1;MODE=MySQL",
            "jdbc:sqlserver://db;user=app;pwd=s3cret;databaseName=x|jdbc:sqlserver://db;databaseName=x"})
    void stripsCredentials(final String url, final String expected) {
        assertEquals(expected, JdbcUrls.withoutCredentials(url));
    }
}
