package org.snowkey.examples.springboot;

import java.util.List;

import org.snowkey.keygen.generator.IdBatch;
import org.snowkey.keygen.segment.SegmentBatch;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.snowkey.spring.SnowKeySegments;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** POST /orders, GET /orders, and GET /ids and GET /numbers to show the SnowKey beans next to ShardingSphere. */
@RestController
public class OrderController {

    private final OrderRepository orders;

    private final SnowKeyIdGenerator ids;

    private final SnowKeySegments numbers;

    public OrderController(final OrderRepository orders, final SnowKeyIdGenerator ids, final SnowKeySegments numbers) {
        this.orders = orders;
        this.ids = ids;
        this.numbers = numbers;
    }

    @PostMapping("/orders")
    @ResponseStatus(HttpStatus.CREATED)
    public Order create(@RequestBody final NewOrder order) {
        return orders.insert(order);
    }

    @GetMapping("/orders")
    public List<Order> list() {
        return orders.findAll();
    }

    /** Ids for application use from a named stream, on the same leased worker id as the orders' keys. */
    @GetMapping("/ids")
    public List<Long> ids(@RequestParam(defaultValue = "requests") final String stream, @RequestParam(defaultValue = "1") final int count) {
        if (count < 1 || count > 1000) {
            throw new org.springframework.web.server.ResponseStatusException(HttpStatus.BAD_REQUEST, "count must be from 1 to 1000");
        }
        IdBatch batch = ids.stream(stream).nextIds(count);
        return List.copyOf(batch);
    }

    /** Dense numbers (short, below 2^53, increasing) from a named segment sequence, e.g. invoice numbers. */
    @GetMapping("/numbers")
    public List<Long> numbers(@RequestParam(defaultValue = "invoices") final String sequence, @RequestParam(defaultValue = "1") final int count) {
        if (count < 1 || count > 1000) {
            throw new org.springframework.web.server.ResponseStatusException(HttpStatus.BAD_REQUEST, "count must be from 1 to 1000");
        }
        SegmentBatch batch = numbers.sequence(sequence).nextIds(count);
        return List.copyOf(batch);
    }
}
