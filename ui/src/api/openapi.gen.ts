// Made from openapi/openapi.yaml by `npm run generate:api` (openapi-typescript): do not edit.
// test/ui/api-types.unit.test.ts fails when this file is not what the document makes.
// ui/src/api/types.ts names the parts the UI reads.

export interface paths {
  '/api/v2/gitops/clusters/{cluster_dns}/platform-components': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The cluster's FQDN (`cluster_dns` of the cluster record). Matched
         *     case-insensitively, folding only ASCII `A`–`Z` as DNS does; one trailing dot is
         *     ignored (`Demo-Cluster-01.K8s.Example.com.` finds `demo-cluster-01.k8s.example.com`).
         *     A name with characters outside ASCII (the Kelvin sign `K`, U+212A, is not a `k`)
         *     finds no cluster: 404.
         * @example demo-cluster-01.k8s.example.com
         */
        cluster_dns: components['parameters']['ClusterDns'];
      };
      cookie?: never;
    };
    /**
     * Platform components of one cluster, merged with the catalog
     * @description One input per entry of the cluster's `platform_components`, in the order of those
     *     references. Merge rules per reference:
     *
     *     1. `id` and `enabled` come from the cluster's reference.
     *     2. A non-null `component_path` on the reference wins over the catalog value;
     *        otherwise the catalog value is used.
     *     3. A non-null `oci_tag` on the reference wins over the catalog value
     *        (`source.oci_tag`); otherwise the catalog value is used.
     *     4. `component_version`, `cluster_env_enabled`, `source.oci_url` and `depends_on`
     *        always come from the catalog entry.
     *     5. `patches` is the cluster's `patches[<component id>]`, or `{}` when there is none.
     *     6. `cluster` is the cluster's `cluster_name`, `cluster_dns` and `environment`.
     *     7. A reference whose catalog entry does not exist is skipped (the validator and the
     *        crud mode never let such a state be stored).
     *
     *     "The catalog" is the catalog entry as this cluster is served it: where a rollout
     *     (`/rollouts`) has released the cluster's step, the entry with the rollout's `set`
     *     applied; rules 2 and 3 still let the cluster's own overrides win.
     */
    get: operations['getPlatformComponentInputs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    /** Headers of the platform-components inputs, without a body */
    head: operations['headPlatformComponentInputs'];
    patch?: never;
    trace?: never;
  };
  '/api/v2/gitops/clusters/{cluster_dns}/namespaces': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The cluster's FQDN (`cluster_dns` of the cluster record). Matched
         *     case-insensitively, folding only ASCII `A`–`Z` as DNS does; one trailing dot is
         *     ignored (`Demo-Cluster-01.K8s.Example.com.` finds `demo-cluster-01.k8s.example.com`).
         *     A name with characters outside ASCII (the Kelvin sign `K`, U+212A, is not a `k`)
         *     finds no cluster: 404.
         * @example demo-cluster-01.k8s.example.com
         */
        cluster_dns: components['parameters']['ClusterDns'];
      };
      cookie?: never;
    };
    /**
     * Namespaces of one cluster
     * @description Each id in the cluster's `namespaces` is resolved in the namespace definitions, in
     *     the order of the cluster's references. The definition (`id`, `labels`,
     *     `annotations`, each always present) is returned with the nested `cluster` block.
     *     A referenced id without a definition is skipped.
     */
    get: operations['getNamespaceInputs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    /** Headers of the namespace inputs, without a body */
    head: operations['headNamespaceInputs'];
    patch?: never;
    trace?: never;
  };
  '/api/v2/gitops/clusters/{cluster_dns}/rolebindings': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The cluster's FQDN (`cluster_dns` of the cluster record). Matched
         *     case-insensitively, folding only ASCII `A`–`Z` as DNS does; one trailing dot is
         *     ignored (`Demo-Cluster-01.K8s.Example.com.` finds `demo-cluster-01.k8s.example.com`).
         *     A name with characters outside ASCII (the Kelvin sign `K`, U+212A, is not a `k`)
         *     finds no cluster: 404.
         * @example demo-cluster-01.k8s.example.com
         */
        cluster_dns: components['parameters']['ClusterDns'];
      };
      cookie?: never;
    };
    /**
     * Rolebindings of one cluster
     * @description Each id in the cluster's `rolebindings` is resolved in the rolebinding definitions,
     *     in the order of the cluster's references. The definition (`id`, `role`,
     *     `subjects`) is returned with the nested `cluster` block. A referenced id without a
     *     definition is skipped. The consumer renders each item as a `ClusterRoleBinding`.
     */
    get: operations['getRoleBindingInputs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    /** Headers of the rolebinding inputs, without a body */
    head: operations['headRoleBindingInputs'];
    patch?: never;
    trace?: never;
  };
  '/api/v2/gitops/clusters': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * All clusters, for provisioners
     * @description One input per cluster record, sorted by `id`. `inputs` is empty only when the store
     *     really holds no clusters (or none passes the filters). A fleet of any size is read
     *     in parts under the 900 KiB limit with `environment` and `shard`: the `n` shards are
     *     disjoint and together the whole fleet. A whole (or filtered) list that would pass
     *     900 KiB answers `422 response_too_large`, naming the filters; any other query
     *     parameter is a `400`.
     */
    get: operations['getClusterInputs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    /** Headers of the cluster listing, without a body */
    head: operations['headClusterInputs'];
    patch?: never;
    trace?: never;
  };
  '/api/v2/gitops/fleet': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Which cluster polled what, and when, and whether it has the current bodies
     * @description Worked out from the polls this replica answered (kept in memory, per replica) and,
     *     with `PEERS`, from those every other replica answered: per cluster and endpoint the
     *     newest poll any replica answered wins, with the ETag it got, compared with this
     *     replica's current ETags; `peers` names the replicas that answered and those that did
     *     not (their polls are then missing from the view). For every cluster of the
     *     served revision, in `id` order, and each of its three endpoints: when it last polled,
     *     the ETag of the body it got, the ETag of the body served now, and whether they are
     *     the same. A poll is a `GET` answered `200`, or `304` (the client already held the
     *     current body); a `HEAD`, an error, a `GET` sent with `Gitops-Poll: false` (a person
     *     looking at the answer in the web UI) and the fleet listing `GET /api/v2/gitops/clusters`
     *     (a provisioner's request, not a cluster's) are not polls. ETags are the identity
     *     ETags (a gzip answer's tag is the same with `-gzip` added).
     *
     *     A cluster is `never_seen` when no poll of it was answered, `up_to_date` when every
     *     endpoint it polls got the current body on its last poll, `behind` otherwise. An
     *     endpoint a cluster never polled does not make it behind (its fields are `null`).
     *     After a publication, the clusters whose bytes changed are `behind` until they poll
     *     again; the others stay `up_to_date`. `summary` counts the whole fleet whatever the
     *     filter; without `PEERS` it equals the `gitops_config_fleet_clusters` gauge of
     *     `/metrics`, which stays per replica (its own polls) with `PEERS` too. Polls of removed
     *     clusters are forgotten. `404` with `METRICS=off`.
     */
    get: operations['getFleetView'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/gitops/rollouts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Where every rollout stands
     * @description Every rollout of the served revision, in `id` order: its state and why in words, the
     *     steps released of its steps, and its clusters counted by state. Worked out from the
     *     poll records (with `PEERS`, every replica's merged, like the fleet view): a cluster of
     *     a released step is `fetched` once its last `platform-components` poll got an answer of
     *     a revision that releases its step. Needs a credential that reads the whole fleet (a
     *     cluster's gets `403`). It takes no query parameter (`400` naming one). `404` with
     *     `METRICS=off` (no poll records). Served in read-only and crud mode alike.
     */
    get: operations['listRolloutProgress'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/gitops/rollouts/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The rollout's id. */
        id: string;
      };
      cookie?: never;
    };
    /**
     * Where one rollout stands, step by step and cluster by cluster
     * @description The fields of the list, with `steps` the rollout's steps in order: the wave of each,
     *     the revision first seen releasing it, when it was released and done, when its soak
     *     ends, and each of its clusters with its state, since when, and a `message` where
     *     there is one (why it is `offline`, what it reported). Step times are kept in memory
     *     per replica: after a restart they start again from when a step is seen released and
     *     done. `404` for an id no rollout of the served revision has, and with `METRICS=off`.
     */
    get: operations['getRolloutProgress'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/gitops/whoami': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Who the service takes the caller for, and what it may do
     * @description For any valid credential, a cluster's included: its `kind` (`service`, `cluster`,
     *     `person`), `name` (`read-token` or `write-token` for a service, the cluster id, the
     *     person's name), `email` (a person's; otherwise `null`), `roles` (`read`, `write`) and
     *     `clusters`: the ids of the clusters it may read, or `null` when it is not limited to
     *     some. A client certificate naming a cluster makes the caller that cluster's, whatever
     *     token comes with it (of a cluster token of another cluster, `clusters` is empty).
     */
    get: operations['getWhoami'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/gitops/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * An event a cluster's notification-controller sends (a Provider of type generic or generic-hmac)
     * @description The JSON of Flux's `Event`, as notification-controller posts it for an Alert: the
     *     HelmRelease events of a cluster report whether a rollout's release went in
     *     (docs/rollouts.md, "Gating on what clusters report"). The sender is a cluster, one of two
     *     ways: its cluster token (Bearer, or Basic with the cluster id as the user name: a
     *     `generic` Provider whose `headers` Secret holds it) or client certificate as the
     *     caller — a `metadata.cluster` naming another cluster is `403`; or, without
     *     Authorization, `X-Signature: sha256=<hex HMAC-SHA256 of the body>` keyed by the token
     *     of the cluster named in `metadata.cluster` (a `generic-hmac` Provider whose Secret's
     *     `token` is the cluster's token, and an Alert with `eventMetadata.cluster`).
     *
     *     `202` once kept (`status: accepted`), or when the same event was kept before
     *     (`status: duplicate`: a retried delivery is kept once). Refused, and nothing kept: a
     *     body over 64 KiB (`413`, before it is read when `Content-Length` says so), not JSON or
     *     not an event (`400`, `details` naming each field), no credential, a signature that does
     *     not verify — another cluster's token, a changed body, a cluster that does not exist —
     *     or a signed event naming no cluster (`401`), a caller that is not a cluster or a
     *     cluster's credential with another cluster's event (`403`), a cluster past
     *     `EVENTS_BURST` at once or `EVENTS_RATE` a second (`429` with `Retry-After`). The last
     *     64 events of each cluster are kept in memory, within `EVENTS_MEMORY`.
     */
    post: operations['postEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/gitops/changes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Apply several writes as one commit
     * @description Applies the writes in order to the revision served, judges the result once, as a
     *     whole, by the rules every write and every published revision is judged by (only
     *     problems the set introduces refuse it), and stores it as **one** commit with
     *     `message` (Git; one transaction with SQLite, one revision in memory): all or nothing.
     *     A record written several times is stored as the last write leaves it.
     *
     *     Each write is checked where it stands for what it alone decides: its shape, whether
     *     the record exists (`404`, or `409` for a create), `if_match` — the record's ETag
     *     exactly as `GET` returned it, compared with the record as the writes before it left
     *     it (`412`) —, the record's schema and a `cluster_dns` another cluster holds. What the
     *     writes do to each other and to the other records is judged on the whole result: a
     *     reference to a record that is not there (`400`), a deleted record that clusters still
     *     reference (`409`, naming them). A set of two or more writes must also pass the
     *     shrink guard (`400`: two or more clusters' lists emptied, or half the fleet's inputs
     *     gone), unless `message` carries the line `Gitops-Allow-Shrink: yes`.
     *
     *     A refusal has the status the failing write would get alone, its message starts with
     *     `write <index>:`, and every entry of `details` names the write by `index` (counted
     *     from 0): the write that failed, or for a problem found on the whole result, the last
     *     write to the record the problem is on (a deleted definition still referenced: the
     *     delete).
     *
     *     `201`: the new revision and every record the writes named, once each, in the order
     *     first written, as stored after the set (`record` and `etag` `null` when it is gone).
     *     A set that changes nothing (every write puts back what was there) stores nothing:
     *     `unchanged` is `true` and `revision` the one served. The writes are tried again
     *     when the store moves under them, with `if_match` checked again on the new revision,
     *     until `WRITE_TIMEOUT`, like a single write.
     */
    post: operations['applyChangeSet'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/gitops/revisions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The revisions the service judged, newest first
     * @description Every revision this replica judged — loaded from the store, written through the API,
     *     or (Git) read from the branch's last 100 first-parent commits at start, so a restart
     *     lists the same commits — newest first; the last 1,000 are kept. Each with its
     *     `result` (`published`, or `refused`: the served revision stayed), when it was judged,
     *     the commit's `author`, `time` and `message` (Git; on SQLite and memory those of the
     *     service's own writes, `null` for changes made behind its back), and the clusters whose
     *     answers it changed against the revision published before it (for a refused one: the
     *     revision it would have replaced): `clusters_changed` counts them, `clusters` names the
     *     first 100 in id order; both `null` when the revision before it is not known (the
     *     first one a process read without a history). A refused revision carries the problems
     *     that refused it, as the full view of `/ready` shows them: with the `line` and
     *     `column` in the record file (Git) for the first 200 of them, in at most 50 files, as
     *     `gitops-config validate` reports them. Fleet-wide: a cluster
     *     credential gets `403`. Every replica judges the same revisions of the one store, so
     *     each answers from its own list.
     *
     *     Each entry is bounded in bytes, whatever the commit holds: `message` keeps the
     *     subject and the start of the body, at most 4,096 bytes of UTF-8 (`message_truncated`
     *     says when the message is longer); an author's name and e-mail at most 256 characters;
     *     a refused revision's first 20 `problems`, with `problems_count` counting them all.
     *     The list comes in pages: at most `limit` entries, and a page ends once it holds about
     *     1 MiB. `next` is the revision to pass as `before` for the next page (`null` on the
     *     last one); it goes on at any replica that holds that revision, and a `before` that is
     *     not in the list (forgotten since, or never judged here) is a `400`.
     */
    get: operations['listRevisions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/gitops/changes/preview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * What a change set would do, before it is committed (crud mode)
     * @description Takes the body of `POST /api/v2/gitops/changes` and stores nothing: the writes are
     *     applied in order to the served revision exactly as the commit would apply them (a
     *     write that cannot apply gets the status the commit would get, with `details` naming
     *     it by its `index`), and the revision they make is judged as the service judges every
     *     revision. `200` with the report of the change, in the shape `gitops-config diff
     *     --format json` prints: `publishable`, every problem (warnings too), the shrink guard's
     *     verdict, and per changed cluster and endpoint the inputs added, removed and changed
     *     (old → new), the clusters listing and a summary. A set the shrink guard would refuse
     *     (two or more clusters' lists emptied, half of the fleet's inputs gone) is answered
     *     `200` with `publishable: false` and the guard's verdict; the commit of it would get
     *     `400`. The trailer `Gitops-Allow-Shrink: yes` in the `message` lets the shrink
     *     through; a single write is never held to the guard. Write role, like the commit.
     */
    post: operations['previewChangeSet'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Liveness probe
     * @description Answers `200` as long as the process serves HTTP, whether or not a configuration is loaded.
     */
    get: operations['getHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ready': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness probe
     * @description `200` once a configuration snapshot is loaded and served. When the newest revision
     *     was refused or could not be read at all, but an earlier good revision is still
     *     served, the answer stays `200`, with `last_load.ok: false` and `stale: true`. `503`
     *     before the first snapshot is loaded, and from the moment the service begins to shut
     *     down (`SIGTERM`; `status: shutting_down`), so that the replica leaves the Service's
     *     endpoints while it finishes the requests in flight.
     *
     *     Public, in two views (`view`). Without a token (`view: public`, what a probe sees):
     *     the status, the revision served, the revision refused (`last_load.revision`), its
     *     problems counted by severity (`last_load.problem_counts`) and their codes
     *     (`last_load.problem_codes`), a failed load's or sync's reason as a word
     *     (`last_load.reason`, `last_sync.reason`), and the backend's states and times. With
     *     a caller that reads the whole fleet — the read or write token, Bearer or Basic, or a
     *     person who may read (`view: full`) —, also what can tell an
     *     outsider how the service is set up or quote the config's values: each problem
     *     (`last_load.problems`, whose messages quote the values; for a Git store each with
     *     its `line` and `column` in the record file, as `gitops-config validate` reports them,
     *     for the first 200 problems in at most 50 files), the error texts
     *     (`last_load.error`, `last_sync.error`, a full `message` on `503`), folders and files
     *     (`config_repo` of a local repository, `clone_dir`, `database`, `seed_file`) and the
     *     remote repository's URL (`config_repo`, its user info and token query words replaced
     *     by `***`). A wrong token, a cluster's credential, a person in no read group or a
     *     person's token while the issuer cannot be reached is answered with the public view,
     *     never `401`: the probe's answer does not depend on credentials.
     */
    get: operations['getReady'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ui/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The web UI (public files; `404` with `UI=off`)
     * @description The service's web UI: `/ui/` and every path below it that is not one of its files
     *     answer the page (`text/html`, `Cache-Control: no-cache`), which reads its view from the
     *     path; its scripts and styles under `/ui/assets/` have hashed names and
     *     `Cache-Control: public, max-age=31536000, immutable`. `/ui` redirects to `/ui/`. The
     *     files hold no data and need no token: the page asks the person for a token, or signs
     *     them in at the OIDC issuer (`OIDC_UI_CLIENT_ID`: authorization code with PKCE, back at
     *     `/ui/signed-in`), and sends it to the API as `Authorization: Bearer`.
     *     `/ui/config.json`, made by the service at start, tells the page `api_mode`, whether the
     *     fleet view is kept (`fleet_view`) and where people sign in (`oidc`: `issuer`,
     *     `client_id`, `scopes`; `null` without `OIDC_UI_CLIENT_ID`). Every answer carries
     *     `Content-Security-Policy: default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`
     *     (with `OIDC_UI_CLIENT_ID`, also `connect-src 'self' <the issuer's origin>`) and
     *     `Referrer-Policy: no-referrer`. gzip when the client accepts it.
     */
    get: operations['getWebUi'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ui/config.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * What the web UI is told of this service (public; `404` with `UI=off`)
     * @description Made by the service at start and read by the page before it asks the API anything, so
     *     that it never learns what the service offers from an error: whether records are served
     *     (`api_mode`), whether the fleet view is kept (`fleet_view`) and where people sign in
     *     (`oidc`). The same headers as the page (`Content-Security-Policy`, `Referrer-Policy`,
     *     `Cache-Control: no-cache`, an `ETag`; gzip when the client accepts it).
     */
    get: operations['getWebUiSettings'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/openapi.yaml': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * This OpenAPI document
     * @description Serves the file named by `OPENAPI_FILE` (default `openapi/openapi.yaml`).
     */
    get: operations['getOpenApiDocument'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Prometheus metrics
     * @description The Prometheus text exposition format (version 0.0.4). Public. Series of the
     *     service, all prefixed `gitops_config_`:
     *
     *     | series | type | labels |
     *     |---|---|---|
     *     | `http_requests_total` | counter | `route` (the route template, e.g. `/api/v2/gitops/clusters/:cluster_dns/namespaces` or `/clusters/:id`; `unmatched` for a path no route matches — never a cluster name), `method`, `code` |
     *     | `http_request_duration_seconds` | histogram | `route`, `method` (time from the request reaching its handler to the answer being handed to the socket) |
     *     | `revision_info` | gauge, always 1 | `revision` (the served revision, as `X-Config-Revision`) |
     *     | `reloads_total` | counter | `result`: `published`, `refused`, `failed` |
     *     | `last_publish_timestamp_seconds` | gauge | (when the served revision was published, by a reload or a write) |
     *     | `clusters` | gauge | (clusters in the served revision) |
     *     | `fleet_clusters` | gauge | `state`: `up_to_date`, `behind`, `never_seen` (this replica's own polls; without `PEERS` the summary of `GET /api/v2/gitops/fleet`) |
     *     | `writes_total` | counter | `collection`, `action` (`create`, `update`, `delete`), `result` (`ok`, `unchanged`, `refused`, `failed`) |
     *     | `peer_errors_total` | counter | `reason`: `unreachable`, `timeout`, `refused`, `bad_answer`, `tls`, `dns` (exchanges with other replicas that failed; only with `PEERS`) |
     *     | `peers` | gauge | (other replicas found at the last look at `PEERS`; only with `PEERS`) |
     *
     *     Plus prom-client's standard process and Node.js series under their standard names
     *     (`process_cpu_seconds_total`, `process_resident_memory_bytes`,
     *     `nodejs_heap_size_used_bytes`, `nodejs_eventloop_lag_seconds`, ...). `404` with
     *     `METRICS=off`.
     */
    get: operations['getMetrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/hooks/git': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Push webhook; triggers an immediate sync
     * @description Available only when `WEBHOOK_SECRET` is set (otherwise `404`). Authenticated by the
     *     webhook secret, not by a bearer token: either a GitHub `X-Hub-Signature-256`
     *     header (`sha256=` + hex HMAC-SHA256 of the raw request body, keyed with
     *     `WEBHOOK_SECRET`) or a GitLab `X-Gitlab-Token` header equal to `WEBHOOK_SECRET`.
     *     Only enabled for a remote `CONFIG_REPO`.
     *
     *     Checked from the headers before a byte of the body is read, and answered at once
     *     with `Connection: close` (the body is never read): a wrong or missing GitLab token,
     *     a missing or malformed signature (`401`); an `X-GitHub-Event` or `X-Gitlab-Event`
     *     that is not an event name (`400`); a `Content-Length` above 25 MiB, the most GitHub
     *     and GitLab send (`413`); an event other than a push (GitHub `push`, GitLab
     *     `Push Hook` or `System Hook`; an absent event header counts as a push) is answered
     *     `202` with `status: ignored`.
     *
     *     The body is hashed as it arrives, and only its first 64 KiB are kept: of the payload
     *     only `ref` is read, from the whole JSON when it fits, else from the leading fields of
     *     the top-level object (where both hosts put it); a payload whose `ref` is not found
     *     there counts as a push to the branch served. A signature that does not match the
     *     body is `401`. GitHub's `ping` event (sent when a webhook is created) is answered
     *     `200` with `status: pong`. A delivery already handled among the last thousand or so
     *     (`X-GitHub-Delivery`; GitLab's `Idempotency-Key` or `X-Gitlab-Event-UUID`) is
     *     answered `202` with `status: ignored` and no sync. A push to another branch than the
     *     one served is answered `202` with `status: ignored`. Otherwise the remote repository
     *     is fetched at once and the new revision loaded (with the usual all-or-nothing checks);
     *     the answer does not wait for the sync. Syncs do not pile up: while one runs, every
     *     call shares the one sync queued after it.
     */
    post: operations['postGitWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/peers/v1/announce': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Internal — another replica is about to publish a revision
     * @description A revision this replica neither serves nor knows as older (Git: an ancestor of its
     *     commit) makes it ask its store's source for the newest revision there (a remote: its
     *     branch's head, nothing fetched; SQLite: the counter). Only when that is newer than the
     *     one it serves does it hold its polls until it serves it, at most 2 s, fetch it and
     *     answer `catching_up: true` — once per revision. Otherwise it holds nothing and says why
     *     in `ignored`: `nothing_new` (a revision made up, or one already served), `held_before`,
     *     or `rate_limited` (more than 20 announcements at once from one address, 10 a second
     *     after that); each is counted in `gitops_config_peer_announcements_ignored_total`.
     */
    post: operations['peerAnnounce'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/peers/v1/sync': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Internal — another replica was sent a push webhook; fetch now */
    post: operations['peerSync'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/peers/v1/polls': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Internal — this replica's poll registry, for another replica's fleet view
     * @description Always gzip-encoded. One row per cluster: `[id, at × 3, etag × 3]` in the order of
     *     `endpoints` (`at` in ms since the epoch, `0` for never; the ETag the poll got, `null`
     *     for never).
     */
    get: operations['peerPolls'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/peers/v1/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Internal — the events the clusters sent this replica, for another replica's rollouts
     * @description Always gzip-encoded. One entry per cluster: `[id, [event...]]`, each event a row
     *     `[receivedAt, kind, namespace, name, severity, timestamp, reason, message,
     *     reportingController, cluster, revision, rollout]` (`receivedAt` in ms since the epoch; a
     *     metadata key not sent is `null`).
     */
    get: operations['peerEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/clusters': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List clusters
     * @description A bare JSON array of cluster records sorted by `id`, paged with `limit` and
     *     `offset`; the total number of matching records is in `X-Total-Count`. Only in crud
     *     mode. Any other query parameter, a repeated one or a bad value is a `400` naming it.
     */
    get: operations['listClusters'];
    put?: never;
    /**
     * Create a cluster
     * @description Validated like the config-repo validator validates a repository: schema, unknown
     *     fields, references to existing catalog entries / namespaces / rolebindings,
     *     uniqueness of references, `patches` only for referenced components, an id Windows
     *     can name a file after (all `400`), a `cluster_dns` no other cluster has and an id that
     *     does not differ only in case from an existing one (`409`). With the Git backend the record becomes
     *     one commit (`clusters: create <id>`) of the file `clusters/<id>.yaml`.
     */
    post: operations['createCluster'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/clusters/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    /** Get a cluster */
    get: operations['getCluster'];
    /**
     * Replace a cluster
     * @description Replaces the whole record: optional fields left out of the body are reset to their
     *     defaults (empty). An `id` in the body is optional and must equal the path id. A body
     *     equal to the stored record changes nothing and makes no commit.
     */
    put: operations['replaceCluster'];
    post?: never;
    /**
     * Delete a cluster
     * @description Removes the record. The read endpoints then answer `404` for its DNS name (not an
     *     empty list); to decommission a cluster's components while keeping the record,
     *     remove its references instead.
     */
    delete: operations['deleteCluster'];
    options?: never;
    head?: never;
    /**
     * Update a cluster with a JSON Merge Patch
     * @description JSON Merge Patch (RFC 7386): objects merge, `null` removes a key, arrays replace as a
     *     whole. `{"patches": {"podinfo": {"replicaCount": "3"}}}` sets one key of the podinfo
     *     patches and keeps the others; `{"patches": {"podinfo": null}}` removes all podinfo
     *     patches. The merged record is validated like a full record. `id` cannot be changed.
     *     Writes are serialized and each merge patch is applied to the record as it is at that
     *     moment, so concurrent patches of different keys all take effect.
     */
    patch: operations['patchCluster'];
    trace?: never;
  };
  '/platform_components': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List catalog entries
     * @description A bare JSON array sorted by `id`, paged with `limit` and `offset`; the total is in `X-Total-Count`. Only in crud mode. Any other query parameter, a repeated one or a bad value is a `400` naming it.
     */
    get: operations['listPlatformComponents'];
    put?: never;
    /**
     * Create a catalog entry
     * @description `depends_on` must name existing catalog entries and must not form a cycle.
     */
    post: operations['createPlatformComponent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/platform_components/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    /** Get a catalog entry */
    get: operations['getPlatformComponent'];
    /**
     * Replace a catalog entry
     * @description Replaces the whole record; an `id` in the body is optional and must equal the path
     *     id. A new `component_version` / `oci_tag` reaches every cluster that does not
     *     override it on its next poll.
     */
    put: operations['replacePlatformComponent'];
    post?: never;
    /**
     * Delete a catalog entry
     * @description `409 conflict` while a cluster still references the entry or another entry depends on it; the message names them.
     */
    delete: operations['deletePlatformComponent'];
    options?: never;
    head?: never;
    /**
     * Update a catalog entry with a JSON Merge Patch
     * @description JSON Merge Patch (RFC 7386); arrays (`depends_on`) replace as a whole. The result is validated like a full record.
     */
    patch: operations['patchPlatformComponent'];
    trace?: never;
  };
  '/namespaces': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List namespace definitions
     * @description A bare JSON array sorted by `id`, paged with `limit` and `offset`; the total is in `X-Total-Count`. Only in crud mode. Any other query parameter, a repeated one or a bad value is a `400` naming it.
     */
    get: operations['listNamespaces'];
    put?: never;
    /** Create a namespace definition */
    post: operations['createNamespace'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/namespaces/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    /** Get a namespace definition */
    get: operations['getNamespace'];
    /**
     * Replace a namespace definition
     * @description Replaces the whole record (left-out `labels` / `annotations` become `{}`); an `id` in the body is optional and must equal the path id.
     */
    put: operations['replaceNamespace'];
    post?: never;
    /**
     * Delete a namespace definition
     * @description `409 conflict` while a cluster still references the namespace; the message names the clusters.
     */
    delete: operations['deleteNamespace'];
    options?: never;
    head?: never;
    /**
     * Update a namespace definition with a JSON Merge Patch
     * @description JSON Merge Patch (RFC 7386); `{"labels": {"team": null}}` removes one label and keeps the others.
     */
    patch: operations['patchNamespace'];
    trace?: never;
  };
  '/rolebindings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List rolebinding definitions
     * @description A bare JSON array sorted by `id`, paged with `limit` and `offset`; the total is in `X-Total-Count`. Only in crud mode. Any other query parameter, a repeated one or a bad value is a `400` naming it.
     */
    get: operations['listRoleBindings'];
    put?: never;
    /** Create a rolebinding definition */
    post: operations['createRoleBinding'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/rolebindings/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    /** Get a rolebinding definition */
    get: operations['getRoleBinding'];
    /**
     * Replace a rolebinding definition
     * @description Replaces the whole record; an `id` in the body is optional and must equal the path id.
     */
    put: operations['replaceRoleBinding'];
    post?: never;
    /**
     * Delete a rolebinding definition
     * @description `409 conflict` while a cluster still references the rolebinding; the message names the clusters.
     */
    delete: operations['deleteRoleBinding'];
    options?: never;
    head?: never;
    /**
     * Update a rolebinding definition with a JSON Merge Patch
     * @description JSON Merge Patch (RFC 7386); `subjects` is an array and is replaced as a whole.
     */
    patch: operations['patchRoleBinding'];
    trace?: never;
  };
  '/rollouts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List rollouts
     * @description A bare JSON array sorted by `id`, paged with `limit` and `offset`; the total is in `X-Total-Count`. Only in crud mode. Any other query parameter, a repeated one or a bad value is a `400` naming it.
     */
    get: operations['listRollouts'];
    put?: never;
    /**
     * Create a rollout
     * @description A rollout of a catalog entry: nothing changes for any cluster until `released` is
     *     raised (the default is 0). Refused with `400` naming the field: an unknown catalog
     *     entry (`/component`), a `set` of another field or one that changes nothing, a
     *     duration that does not parse, `batch` 0, 0% or over 100%, `released` past the number
     *     of steps, a wave name twice, an approval of a wave it does not have. A second rollout
     *     of one component is a `409`.
     */
    post: operations['createRollout'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/rollouts/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    /** Get a rollout */
    get: operations['getRollout'];
    /**
     * Replace a rollout
     * @description Replaces the whole record (left-out fields take their defaults); an `id` in the body is optional and must equal the path id.
     */
    put: operations['replaceRollout'];
    post?: never;
    /**
     * Delete a rollout
     * @description Every cluster gets the catalog entry as it is from then on, as after a rollback to 0.
     *     To keep what the rollout released, complete it instead: one change set that writes
     *     `set` into the catalog entry and deletes the rollout, which changes no answer of a
     *     cluster in a wave (preview it with `POST /api/v2/gitops/changes/preview`).
     */
    delete: operations['deleteRollout'];
    options?: never;
    head?: never;
    /**
     * Update a rollout with a JSON Merge Patch
     * @description JSON Merge Patch (RFC 7386). Releasing the next step is `{"released": 2}`, rolling
     *     back `{"released": 0, "paused": true}`, approving a wave `{"approved": ["prod"]}`
     *     (`waves` and `approved` are arrays and replace as a whole); send the ETag in
     *     `If-Match` so that two people never release a step twice.
     */
    patch: operations['patchRollout'];
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /**
     * @description Flux's `Event` (fluxcd/pkg), as notification-controller sends it. Of `metadata`, the
     *     service reads `cluster`, `revision` (a HelmRelease's chart version, its group prefix
     *     stripped by notification-controller) and `rollout`; other fields and keys are taken and
     *     not kept.
     */
    FluxEvent: {
      involvedObject: {
        kind: string;
        name: string;
        namespace?: string;
      };
      /** @enum {string} */
      severity: 'info' | 'error' | 'trace';
      /** @description RFC 3339. */
      timestamp: string;
      message?: string;
      reason?: string;
      metadata?: {
        [key: string]: string;
      };
      reportingController?: string;
    };
    /** @description Body of every error response. */
    Error: {
      /**
       * @description Machine-readable error code.
       * @enum {string}
       */
      error:
        | 'bad_request'
        | 'unauthorized'
        | 'forbidden'
        | 'not_found'
        | 'method_not_allowed'
        | 'conflict'
        | 'precondition_failed'
        | 'request_timeout'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'validation_error'
        | 'response_too_large'
        | 'too_many_requests'
        | 'headers_too_large'
        | 'internal_error'
        | 'store_error'
        | 'unavailable';
      /** @description Explanation for a person. */
      message: string;
      /** @description One entry per problem (validation errors). */
      details?: components['schemas']['ErrorDetail'][];
    };
    ErrorDetail: {
      /**
       * @description In the answer to a change set or its preview, the write the problem is about (counted from 0).
       * @example 6
       */
      index?: number;
      /**
       * @description JSON pointer into the record (or the name of the query or path parameter).
       * @example /environment
       */
      path: string;
      /** @example must be one of dev, qa, uat, prod */
      message: string;
    };
    ChangeSet: {
      /**
       * @description The commit message (subject, then a body after a blank line); newlines and tabs
       *     allowed, other control characters not. Without it (or empty), a message listing
       *     the changes. A line `Gitops-Allow-Shrink: yes` of its own lets a set of two or
       *     more writes through the shrink guard. At most 16,384 bytes of UTF-8 (`400
       *     validation_error` naming `message` above that).
       * @example Roll out podinfo 6.7.2 to prod
       */
      message?: string;
      /** @description Applied in this order. */
      writes: components['schemas']['ChangeSetWrite'][];
    };
    /**
     * @description One write: `create` takes `record` (an `id` in it must equal `id`), `replace` takes
     *     `record` (the whole record, as `PUT`), `patch` takes `patch` (a JSON Merge Patch, as
     *     `PATCH`), `delete` neither. `if_match` (not on `create`) is the record's ETag as `GET`
     *     returned it.
     */
    ChangeSetWrite: {
      /** @enum {string} */
      op: 'create' | 'replace' | 'patch' | 'delete';
      /** @enum {string} */
      collection: 'clusters' | 'platform_components' | 'namespaces' | 'rolebindings' | 'rollouts';
      id: components['schemas']['Id'];
      /** @description The record (`create`, `replace`), as the collection's `POST` / `PUT` body. */
      record?: Record<string, unknown>;
      /** @description A JSON Merge Patch (`patch`), as the collection's `PATCH` body. */
      patch?: Record<string, unknown>;
      /**
       * @description The record's ETag exactly as `GET` returned it: one strong ETag, in its quotes. The
       *     write was made on that one version of the record, so unlike the `If-Match` header of
       *     a REST write a list, `*` or a weak `W/` tag is a `400 validation_error`; leave
       *     `if_match` out to write whatever the record holds.
       * @example "q9cZrFbjS0B9lbDEu1P3o2OnBv_"
       */
      if_match?: string;
    };
    ChangeSetStored: {
      /** @description The revision that holds the set (the one served when `unchanged`); `null` in a dry run. */
      revision: string | null;
      /** @description The writes left every record as it was; nothing was stored. */
      unchanged: boolean;
      /** @description Every record the writes named, once, in the order first written, as stored after the set. */
      records: {
        /** @enum {string} */
        collection: 'clusters' | 'platform_components' | 'namespaces' | 'rolebindings' | 'rollouts';
        id: components['schemas']['Id'];
        /** @description The record as stored (as `GET` answers it), or `null` when the set deleted it. */
        record: Record<string, unknown> | null;
        /** @description The record's ETag (as `GET` would send it), or `null` when it is gone. */
        etag: string | null;
      }[];
    };
    /**
     * @description 1–250 characters of `A-Z a-z 0-9 . _ -`, starting and ending with a letter or digit (always a safe file name, `<id>.yaml` within 255 bytes).
     * @example demo-cluster-01
     */
    Id: string;
    /**
     * @description A DNS-1123 label (lowercase letters, digits and `-`, at most 63 characters), since it becomes the namespace name.
     * @example team-a
     */
    NamespaceId: string;
    /**
     * @description Environment tier of a cluster.
     * @example dev
     * @enum {string}
     */
    Environment: 'dev' | 'qa' | 'uat' | 'prod';
    /**
     * @description The generation of the cluster's token (`gcc1.<id>.<mac>`, signed over `<id>:<generation>`); raising it revokes the token issued before. Never part of what the cluster is served.
     * @default 0
     */
    CredentialGeneration: number;
    /**
     * @description The cluster's Flux `Receiver` (type `generic-hmac`, its Secret's `token` the cluster's own token): after a revision that changes the cluster's answers the service POSTs a signed notice to it, so the cluster polls within seconds. `https` only, its host one `RECEIVER_HOSTS` allows; `null`: none. Never part of what the cluster is served.
     * @default null
     * @example https://hooks.dev-eu-1.k8s.example.com/hook/5b8f0d0e7c
     */
    ReceiverUrl: string | null;
    /**
     * Format: hostname
     * @description A valid hostname (the cluster's FQDN), unique across clusters (compared case-insensitively, without a trailing dot).
     * @example demo-cluster-01.k8s.example.com
     */
    Hostname: string;
    /** @description An object of string values. */
    StringMap: {
      [key: string]: string;
    };
    /**
     * @description Keyed by the id of a component the cluster references; each value maps a key (may be
     *     a dotted Helm value path such as `ingress.enabled`) to a string value. Values are
     *     returned as they are to every holder of the read token: no secrets here.
     * @example {
     *       "podinfo": {
     *         "replicaCount": "3",
     *         "ingress.enabled": "true"
     *       }
     *     }
     */
    ClusterPatches: {
      [key: string]: {
        [key: string]: string;
      };
    };
    /** @description The cluster the inputs belong to. */
    ClusterInfo: {
      /**
       * @description The cluster's `cluster_name`.
       * @example demo-cluster-01
       */
      name: string;
      /**
       * @description The cluster's `cluster_dns`.
       * @example demo-cluster-01.k8s.example.com
       */
      dns: string;
      environment: components['schemas']['Environment'];
    };
    PlatformComponentSource: {
      /**
       * @description From the catalog.
       * @example oci://ghcr.io/stefanprodan/charts/podinfo
       */
      oci_url: string;
      /**
       * @description The cluster reference's `oci_tag` if non-null, else the catalog's.
       * @example 6.7.2
       */
      oci_tag: string;
    };
    /** @description One platform component of a cluster, merged from the cluster reference and the catalog entry. */
    PlatformComponentInput: {
      /**
       * @description Component id; the consumer uses it as a resource-name suffix.
       * @example podinfo
       */
      id: string;
      /**
       * @description The cluster reference's `component_path` if non-null, else the catalog's.
       * @example apps/podinfo
       */
      component_path: string;
      /**
       * @description From the catalog; `latest` means no version pin.
       * @example 6.7.1
       */
      component_version: string;
      /** @description From the catalog; when true the consumer appends `/<environment>` to the path. */
      cluster_env_enabled: boolean;
      /**
       * @description From the catalog; component ids that must be healthy first (`[]` when none).
       * @example [
       *       "traefik"
       *     ]
       */
      depends_on: string[];
      /** @description From the cluster reference; `false` makes the consumer remove the component. */
      enabled: boolean;
      /**
       * @description The cluster's `patches[<id>]`, `{}` when none.
       * @example {
       *       "replicaCount": "3"
       *     }
       */
      patches: {
        [key: string]: string;
      };
      cluster: components['schemas']['ClusterInfo'];
      source: components['schemas']['PlatformComponentSource'];
    };
    PlatformComponentInputs: {
      /** @description In the order of the cluster's `platform_components`; empty only when the cluster really references none. */
      inputs: components['schemas']['PlatformComponentInput'][];
    };
    NamespaceInput: {
      /**
       * @description Namespace name (a DNS-1123 label).
       * @example team-a
       */
      id: string;
      labels: components['schemas']['StringMap'];
      annotations: components['schemas']['StringMap'];
      cluster: components['schemas']['ClusterInfo'];
    };
    NamespaceInputs: {
      /** @description In the order of the cluster's `namespaces`; empty only when the cluster really references none. */
      inputs: components['schemas']['NamespaceInput'][];
    };
    /** @description A RBAC subject. */
    Subject: {
      /** @example Group */
      kind: string;
      /** @example platform-admins */
      name: string;
      /** @example rbac.authorization.k8s.io */
      apiGroup: string;
    };
    RoleBindingInput: {
      /** @example platform-admins */
      id: string;
      /**
       * @description Name of the role being bound.
       * @example cluster-admin
       */
      role: string;
      subjects: components['schemas']['Subject'][];
      cluster: components['schemas']['ClusterInfo'];
    };
    RoleBindingInputs: {
      /** @description In the order of the cluster's `rolebindings`; empty only when the cluster really references none. */
      inputs: components['schemas']['RoleBindingInput'][];
    };
    ClusterSummaryInput: {
      /** @example demo-cluster-01 */
      id: string;
      /** @example demo-cluster-01 */
      cluster_name: string;
      /** @example demo-cluster-01.k8s.example.com */
      cluster_dns: string;
      environment: components['schemas']['Environment'];
    };
    ClusterSummaryInputs: {
      /** @description All clusters, sorted by `id`; empty only when there are none. */
      inputs: components['schemas']['ClusterSummaryInput'][];
    };
    Whoami: {
      /** @enum {string} */
      kind: 'service' | 'cluster' | 'person';
      /** @description `read-token` or `write-token` for a service; the cluster id; the person's name. */
      name: string;
      email: string | null;
      roles: ('read' | 'write')[];
      /** @description The ids of the clusters the caller may read; `null` when it is not limited to some. */
      clusters: string[] | null;
    };
    /**
     * @description The first that applies: `complete` (every step released, done and soaked), `halted`
     *     (a released step has more clusters failed or offline than `failure_budget`, or is not
     *     done within `progress_deadline`), `paused`, `running` (a released step is not done),
     *     `waiting` (a soak, or a person's approval of the next wave), `ready` (the next step may
     *     be released).
     * @enum {string}
     */
    RolloutProgressState: 'running' | 'waiting' | 'ready' | 'halted' | 'paused' | 'complete';
    /** @enum {string} */
    RolloutClusterState: 'pending' | 'released' | 'fetched' | 'succeeded' | 'failed' | 'offline' | 'pinned';
    /** @description The rollout's clusters by state, every state present. */
    RolloutClusterCounts: {
      pending: number;
      released: number;
      fetched: number;
      succeeded: number;
      failed: number;
      offline: number;
      pinned: number;
    };
    RolloutProgressItem: {
      id: string;
      component: string;
      set: components['schemas']['RolloutSet'];
      state: components['schemas']['RolloutProgressState'];
      /** @description The state in words ("3 of 12 clusters have not fetched: …", "soak of step 2 ends at 14:32 UTC"). */
      reason: string;
      /** @description The steps released (the record's `released`). */
      released: number;
      /** @description How many steps the rollout has. */
      steps: number;
      clusters: components['schemas']['RolloutClusterCounts'];
    };
    RolloutProgressList: {
      /** @description In `id` order. */
      rollouts: components['schemas']['RolloutProgressItem'][];
    };
    RolloutProgressDetail: {
      id: string;
      component: string;
      set: components['schemas']['RolloutSet'];
      state: components['schemas']['RolloutProgressState'];
      reason: string;
      released: number;
      clusters: components['schemas']['RolloutClusterCounts'];
      /** @description In step order, numbered across waves from 1. */
      steps: components['schemas']['RolloutProgressStep'][];
    };
    RolloutProgressStep: {
      step: number;
      wave: string;
      /** @description The revision first seen releasing the step; null while it is not released. */
      released_in: string | null;
      /** Format: date-time */
      released_at: string | null;
      /**
       * Format: date-time
       * @description When every cluster of it that gates it first had it (within the failure budget); its soak runs from then.
       */
      done_at: string | null;
      /** Format: date-time */
      soak_ends_at: string | null;
      /** @description The step's clusters in id order. */
      clusters: {
        id: string;
        state: components['schemas']['RolloutClusterState'];
        /**
         * Format: date-time
         * @description Since when it is in this state; null for `pending`.
         */
        since: string | null;
        /** @description Why it is `offline`, or what it reported. */
        message?: string;
      }[];
    };
    /** @enum {string} */
    FleetState: 'up_to_date' | 'behind' | 'never_seen';
    FleetView: {
      /** @description The served revision whose bodies `etag_current` names. */
      revision: string;
      summary: components['schemas']['FleetSummary'];
      peers?: components['schemas']['FleetPeers'];
      /** @description In `id` order; only those in the requested `state`, if one was given. */
      clusters: components['schemas']['FleetCluster'][];
    };
    PeerAnswer: {
      /** @description The answering process's instance id (a replica finds its own address among its peers by it). */
      instance: string;
      /** @description The revision the answering replica serves. */
      revision: string | null;
      /** @description The announced revision is news to it; it fetches and holds its polls. */
      catching_up?: boolean;
      /**
       * @description The announcement made it hold nothing: its store holds nothing newer than what it
       *     serves (`nothing_new`), it held its polls for that revision before (`held_before`),
       *     or the announcing address made more announcements than it may (`rate_limited`).
       * @enum {string}
       */
      ignored?: 'nothing_new' | 'held_before' | 'rate_limited';
      /** @description The request came from the answering process itself. */
      self?: boolean;
    };
    /**
     * @description Only with `PEERS`: the other replicas whose polls are merged into the view, and those
     *     that did not answer within 3 s (their polls are missing from it). A replica that left
     *     a DNS name's answer (not ready, stopped) is in neither list.
     */
    FleetPeers: {
      answered: {
        /** @description The replica's base URL, as resolved from `PEERS`. */
        url: string;
        /** @description The replica's process (a random id of each start). */
        instance: string;
        /** @description The revision it serves (null before its first). */
        revision: string | null;
      }[];
      missing: {
        url: string;
        /**
         * @description As counted in `gitops_config_peer_errors_total`.
         * @enum {string}
         */
        reason: 'unreachable' | 'timeout' | 'refused' | 'bad_answer' | 'tls' | 'dns';
      }[];
    };
    /** @description Clusters of the served revision in each state, whatever the filter (with `PEERS`, every replica's polls merged). */
    FleetSummary: {
      clusters: number;
      up_to_date: number;
      behind: number;
      never_seen: number;
    };
    FleetCluster: {
      id: string;
      cluster_dns: string;
      state: components['schemas']['FleetState'];
      /** @description `state` is `up_to_date`. */
      up_to_date: boolean;
      /**
       * Format: date-time
       * @description The cluster's last answered poll on any endpoint; null when never seen.
       */
      last_seen: string | null;
      endpoints: {
        'platform-components': components['schemas']['FleetEndpointPoll'];
        namespaces: components['schemas']['FleetEndpointPoll'];
        rolebindings: components['schemas']['FleetEndpointPoll'];
      };
    };
    /** @description The cluster's last answered poll of one endpoint; every field is null when it never polled it. */
    FleetEndpointPoll: {
      /** Format: date-time */
      last_poll: string | null;
      /** @description The ETag of the body that poll got. */
      etag_served: string | null;
      /** @description The ETag of the body served now (null too when that answer would pass 900 KiB). */
      etag_current: string | null;
      /** @description Whether the last poll got the body served now. */
      up_to_date: boolean | null;
    };
    /** @description A cluster's reference to a catalog entry, with per-cluster overrides. */
    ComponentRef: {
      id: components['schemas']['Id'];
      /** @description Passed through to the inputs; `false` makes the consumer remove the component. */
      enabled: boolean;
      /**
       * @description Per-cluster override of the catalog `oci_tag` (e.g. a hotfix); null or absent means the catalog value.
       * @example 6.7.2
       */
      oci_tag?: string | null;
      /** @description Per-cluster override of the catalog `component_path`; null or absent means the catalog value. */
      component_path?: string | null;
    };
    /** @description A reference by id to a namespace or rolebinding definition. */
    IdRef: {
      id: components['schemas']['Id'];
    };
    /** @description A stored cluster record (schema version 2). Every field is present in responses. */
    Cluster: {
      id: components['schemas']['Id'];
      /** @example demo-cluster-01 */
      cluster_name: string;
      cluster_dns: components['schemas']['Hostname'];
      environment: components['schemas']['Environment'];
      credential_generation: components['schemas']['CredentialGeneration'];
      receiver_url: components['schemas']['ReceiverUrl'];
      /** @description References to catalog entries, unique by id; their order is the order of the inputs. */
      platform_components: components['schemas']['ComponentRef'][];
      /** @description References to namespace definitions, unique by id. */
      namespaces: components['schemas']['IdRef'][];
      /** @description References to rolebinding definitions, unique by id. */
      rolebindings: components['schemas']['IdRef'][];
      patches: components['schemas']['ClusterPatches'];
    };
    /** @description Body of `POST /clusters`. Left-out lists and `patches` default to empty. Unknown fields are rejected. */
    ClusterCreate: {
      id: components['schemas']['Id'];
      cluster_name: string;
      cluster_dns: components['schemas']['Hostname'];
      environment: components['schemas']['Environment'];
      credential_generation?: components['schemas']['CredentialGeneration'];
      receiver_url?: components['schemas']['ReceiverUrl'];
      /** @default [] */
      platform_components?: components['schemas']['ComponentRef'][];
      /** @default [] */
      namespaces?: components['schemas']['IdRef'][];
      /** @default [] */
      rolebindings?: components['schemas']['IdRef'][];
      patches?: components['schemas']['ClusterPatches'];
    };
    /** @description Body of `PUT /clusters/{id}`, the whole record. `id` is optional and must equal the path id. Left-out lists and `patches` become empty. */
    ClusterReplace: {
      id?: components['schemas']['Id'];
      cluster_name: string;
      cluster_dns: components['schemas']['Hostname'];
      environment: components['schemas']['Environment'];
      credential_generation?: components['schemas']['CredentialGeneration'];
      receiver_url?: components['schemas']['ReceiverUrl'];
      /** @default [] */
      platform_components?: components['schemas']['ComponentRef'][];
      /** @default [] */
      namespaces?: components['schemas']['IdRef'][];
      /** @default [] */
      rolebindings?: components['schemas']['IdRef'][];
      patches?: components['schemas']['ClusterPatches'];
    };
    /**
     * @description JSON Merge Patch (RFC 7386) for a cluster. Objects merge, `null` removes a key
     *     (a removed optional field returns to its default), arrays replace as a whole.
     *     `id`, if given, must equal the path id.
     * @example {
     *       "patches": {
     *         "podinfo": {
     *           "replicaCount": "3"
     *         }
     *       }
     *     }
     */
    ClusterMergePatch: {
      id?: components['schemas']['Id'];
      cluster_name?: string;
      cluster_dns?: components['schemas']['Hostname'];
      environment?: components['schemas']['Environment'];
      /** @description `null` returns it to 0. */
      credential_generation?: number | null;
      receiver_url?: components['schemas']['ReceiverUrl'];
      platform_components?: components['schemas']['ComponentRef'][] | null;
      namespaces?: components['schemas']['IdRef'][] | null;
      rolebindings?: components['schemas']['IdRef'][] | null;
      /** @description Merged key by key; `null` for a component id removes its patches, `null` for a key removes that key. */
      patches?: {
        [key: string]: {
          [key: string]: string | null;
        } | null;
      } | null;
    };
    /** @description A stored catalog entry (schema version 1). Every field is present in responses. */
    PlatformComponent: {
      id: components['schemas']['Id'];
      /**
       * @description Default chart name or path inside the artifact.
       * @example apps/podinfo
       */
      component_path: string;
      /**
       * @description Upstream version; `latest` means no version pin.
       * @example 6.7.1
       */
      component_version: string;
      /**
       * @description Chart repository or OCI registry URL.
       * @example oci://ghcr.io/stefanprodan/charts/podinfo
       */
      oci_url: string;
      /**
       * @description Default artifact tag.
       * @example 6.7.1
       */
      oci_tag: string;
      /** @description When true the consumer appends `/<environment>` to the path. */
      cluster_env_enabled: boolean;
      /** @description Ids of existing catalog entries that must be healthy first; no cycles. */
      depends_on: components['schemas']['Id'][];
    };
    /** @description Body of `POST /platform_components`. Unknown fields are rejected. */
    PlatformComponentCreate: {
      id: components['schemas']['Id'];
      component_path: string;
      component_version: string;
      oci_url: string;
      oci_tag: string;
      /** @default false */
      cluster_env_enabled?: boolean;
      /** @default [] */
      depends_on?: components['schemas']['Id'][];
    };
    /** @description Body of `PUT /platform_components/{id}`, the whole record. `id` is optional and must equal the path id. */
    PlatformComponentReplace: {
      id?: components['schemas']['Id'];
      component_path: string;
      component_version: string;
      oci_url: string;
      oci_tag: string;
      /** @default false */
      cluster_env_enabled?: boolean;
      /** @default [] */
      depends_on?: components['schemas']['Id'][];
    };
    /** @description JSON Merge Patch (RFC 7386) for a catalog entry; `null` on an optional field restores its default; `depends_on` replaces as a whole. */
    PlatformComponentMergePatch: {
      id?: components['schemas']['Id'];
      component_path?: string;
      component_version?: string;
      oci_url?: string;
      oci_tag?: string;
      cluster_env_enabled?: boolean | null;
      depends_on?: components['schemas']['Id'][] | null;
    };
    /** @description A stored namespace definition (schema version 1). Every field is present in responses. */
    Namespace: {
      id: components['schemas']['NamespaceId'];
      labels: components['schemas']['StringMap'];
      annotations: components['schemas']['StringMap'];
    };
    /** @description Body of `POST /namespaces`. `labels` and `annotations` default to `{}`. */
    NamespaceCreate: {
      id: components['schemas']['NamespaceId'];
      labels?: components['schemas']['StringMap'];
      annotations?: components['schemas']['StringMap'];
    };
    /** @description Body of `PUT /namespaces/{id}`, the whole record. `id` is optional and must equal the path id; left-out maps become `{}`. */
    NamespaceReplace: {
      id?: components['schemas']['NamespaceId'];
      labels?: components['schemas']['StringMap'];
      annotations?: components['schemas']['StringMap'];
    };
    /** @description JSON Merge Patch (RFC 7386) for a namespace definition; `null` for a label or annotation key removes it. */
    NamespaceMergePatch: {
      id?: components['schemas']['NamespaceId'];
      labels?: {
        [key: string]: string | null;
      } | null;
      annotations?: {
        [key: string]: string | null;
      } | null;
    };
    /** @description A stored rolebinding definition (schema version 1). */
    RoleBinding: {
      id: components['schemas']['Id'];
      /**
       * @description Name of the role being bound.
       * @example cluster-admin
       */
      role: string;
      subjects: components['schemas']['Subject'][];
    };
    /** @description Body of `POST /rolebindings`. */
    RoleBindingCreate: {
      id: components['schemas']['Id'];
      role: string;
      subjects: components['schemas']['Subject'][];
    };
    /** @description Body of `PUT /rolebindings/{id}`, the whole record. `id` is optional and must equal the path id. */
    RoleBindingReplace: {
      id?: components['schemas']['Id'];
      role: string;
      subjects: components['schemas']['Subject'][];
    };
    /** @description JSON Merge Patch (RFC 7386) for a rolebinding definition; `subjects` replaces as a whole. */
    RoleBindingMergePatch: {
      id?: components['schemas']['Id'];
      role?: string;
      subjects?: components['schemas']['Subject'][];
    };
    /**
     * @description A stored rollout (schema version 1; `schemas/rollout.schema.json` describes each
     *     field). Every field is present in responses. Its members are the clusters that
     *     reference `component`; wave k is the members its `clusters` and `environments` select,
     *     minus those of earlier waves; a wave's members sorted by id are cut into steps of
     *     `batch`; steps are numbered across waves from 1, and steps 1 to `released` get the
     *     catalog entry with `set` applied.
     */
    Rollout: {
      id: components['schemas']['Id'];
      component: components['schemas']['Id'];
      set: components['schemas']['RolloutSet'];
      waves: components['schemas']['RolloutWaveStored'][];
      /** @description Clusters per step that may fail or be offline without halting the rollout. */
      failure_budget: number;
      progress_deadline: components['schemas']['Duration'];
      /** @description A cluster counts for its step once it reports its upgrade succeeded, not once it fetched its answer. */
      require_reports: boolean;
      /** @description Steps 1 to `released` are released; 0 serves the catalog entry as it is everywhere. */
      released: number;
      /** @description No step is released by the service while true. */
      paused: boolean;
      /** @description Names of waves with `approval` that a person approved. */
      approved: components['schemas']['Id'][];
    };
    /** @description What the clusters of released steps get instead of the catalog's values; at least one field, and not all equal to the catalog's. */
    RolloutSet: {
      /** @example 6.7.2 */
      component_version?: string;
      /** @example 6.7.2 */
      oci_tag?: string;
      oci_url?: string;
      component_path?: string;
    };
    RolloutWave: {
      name: components['schemas']['Id'];
      /** @default [] */
      clusters?: components['schemas']['Id'][];
      /** @default [] */
      environments?: components['schemas']['Environment'][];
      batch?: components['schemas']['RolloutBatch'];
      soak?: components['schemas']['Duration'];
      /** @default false */
      approval?: boolean;
    };
    RolloutWaveStored: components['schemas']['RolloutWave'] & Record<string, unknown>;
    /**
     * @description Clusters per step: a number from 1, a percentage of the wave from 1% to 100% (rounded up, at least 1), or null for the whole wave.
     * @example 25%
     */
    RolloutBatch: (number | null) | string;
    /**
     * @description A Go duration, as time.ParseDuration reads it: "30s", "15m", "2h", "1h30m", "1.5h" (units ns, us, ms, s, m, h; no days); not negative.
     * @example 30m
     */
    Duration: string;
    /** @description Body of `POST /rollouts`. Left-out fields take their defaults (`failure_budget` 0, `progress_deadline` 1h, `require_reports` false, `released` 0, `paused` false, `approved` []). */
    RolloutCreate: {
      id: components['schemas']['Id'];
      component: components['schemas']['Id'];
      set: components['schemas']['RolloutSet'];
      waves: components['schemas']['RolloutWave'][];
      /** @default 0 */
      failure_budget?: number;
      progress_deadline?: components['schemas']['Duration'];
      /** @default false */
      require_reports?: boolean;
      /** @default 0 */
      released?: number;
      /** @default false */
      paused?: boolean;
      /** @default [] */
      approved?: components['schemas']['Id'][];
    };
    /** @description Body of `PUT /rollouts/{id}`, the whole record. `id` is optional and must equal the path id; left-out fields take their defaults. */
    RolloutReplace: {
      id?: components['schemas']['Id'];
      component: components['schemas']['Id'];
      set: components['schemas']['RolloutSet'];
      waves: components['schemas']['RolloutWave'][];
      /** @default 0 */
      failure_budget?: number;
      progress_deadline?: components['schemas']['Duration'];
      /** @default false */
      require_reports?: boolean;
      /** @default 0 */
      released?: number;
      /** @default false */
      paused?: boolean;
      /** @default [] */
      approved?: components['schemas']['Id'][];
    };
    /** @description JSON Merge Patch (RFC 7386) for a rollout; `null` on an optional field restores its default; `set` merges key by key, `waves` and `approved` replace as a whole. */
    RolloutMergePatch: {
      id?: components['schemas']['Id'];
      component?: components['schemas']['Id'];
      set?: {
        component_version?: string | null;
        oci_tag?: string | null;
        oci_url?: string | null;
        component_path?: string | null;
      };
      waves?: components['schemas']['RolloutWave'][];
      failure_budget?: number | null;
      progress_deadline?: string | null;
      require_reports?: boolean | null;
      released?: number | null;
      paused?: boolean | null;
      approved?: components['schemas']['Id'][] | null;
    };
    RevisionHistory: {
      /** @description Newest first. */
      revisions: components['schemas']['RevisionEntry'][];
      /** @description The revision to pass as `before` for the next page; `null` on the last page. */
      next: string | null;
    };
    RevisionEntry: {
      /** @description The revision id (a Git commit, with a marker for uncommitted edits; a SQLite counter; a seed's hash). */
      revision: string;
      /** @enum {string} */
      result: 'published' | 'refused';
      /**
       * Format: date-time
       * @description When this replica judged it.
       */
      judged_at: string;
      /** @description The commit's author (Git), or who wrote it through the API (SQLite, memory); `null` when not known. */
      author: {
        name: string;
        email: string | null;
      } | null;
      /**
       * Format: date-time
       * @description When it was made (the commit's author time), or `null` when not known.
       */
      time: string | null;
      /** @description The commit message (the change set's or the write's message), at most its first 4,096 bytes of UTF-8, or `null` when not known. */
      message: string | null;
      /** @description The message is longer than `message` holds. */
      message_truncated: boolean;
      /** @description How many clusters' answers it changed (a refused one would have changed); `null` when the revision before it is not known. */
      clusters_changed: number | null;
      /** @description The first 100 of them, in id order. */
      clusters: string[] | null;
      /** @description A refused revision's problems, the first 20 (empty for a published one). */
      problems: components['schemas']['LoadProblem'][];
      /** @description How many problems refused it (more than `problems` holds when over 20). */
      problems_count: number;
    };
    /**
     * @description What a change does: the report `gitops-config diff --format json` prints and the
     *     preview of a change set answers with, one shape for both.
     */
    ChangeReport: {
      /** @description Whether the service, serving the base, would publish the head (the same as `verdict.publish`). */
      publishable: boolean;
      /** @description Every problem of the head judged against the base, warnings included. */
      problems: components['schemas']['Problem'][];
      guard: components['schemas']['ShrinkGuardVerdict'];
      base: components['schemas']['ReportRevision'];
      head: components['schemas']['ReportRevision'];
      verdict: {
        publish: boolean;
        /** @description The errors that would refuse the head. */
        problems: components['schemas']['Problem'][];
      };
      /** @description The clusters whose answers change, in id order. */
      clusters: components['schemas']['ClusterChange'][];
      listing: components['schemas']['InputListChange'];
      /**
       * @description The rollouts the change creates, edits or deletes (their record differs), in id
       *     order, each with the clusters of every step as the service plans them: a new
       *     rollout's steps are listed before any is released.
       */
      rollouts: components['schemas']['RolloutPlanChange'][];
      summary: components['schemas']['ChangeSummary'];
    };
    /**
     * @description A rollout as the change leaves it: its steps in order with their clusters (sorted by
     *     id), and the clusters using the component that no wave selects. A deleted rollout is
     *     shown as the base had it.
     */
    RolloutPlanChange: {
      id: string;
      /** @enum {string} */
      status: 'added' | 'changed' | 'removed';
      component: string;
      /** @description Steps released by the record (steps 1 to `released`). */
      released: number;
      steps: {
        /** @description Counted across waves from 1. */
        step: number;
        wave: string;
        clusters: string[];
      }[];
      /** @description Clusters using the component in no wave; the rollout never changes them. */
      unassigned: string[];
    };
    /** @description One problem as data. `at` says where it is; `line` and `column` are known to the tool, which reads the files' text. */
    Problem: {
      /** @example shrink_guard */
      code: string;
      /** @enum {string} */
      severity: 'error' | 'warning';
      at: {
        record?: {
          collection: string;
          id: string;
        };
        /** @description JSON pointer inside the record; empty for the whole record or revision. */
        field: string;
        file?: string;
        line?: number;
        column?: number;
      };
      message: string;
      /** @description For a reference problem, the record referred to. */
      refersTo?: {
        collection?: string;
        id?: string;
      };
      identity?: string;
    };
    /** @description What the shrink guard finds of the head against the base; `null` when nothing was judged. */
    ShrinkGuardVerdict: {
      /** @enum {string} */
      verdict: 'pass' | 'refuse';
      /** @description A shrink is let through (the trailer, GUARD_ACCEPT_REVISION, or a single write the guard finds one in); its findings are warnings then. */
      shrink_allowed: boolean;
      /** @description Clusters of both revisions whose non-empty list on an endpoint becomes empty. */
      emptied_clusters: {
        cluster: string;
        endpoints: ('platform-components' | 'namespaces' | 'rolebindings')[];
      }[];
      /** @description So many emptied clusters are a mass shrink (2). */
      emptied_limit: number;
      inputs_before: number;
      inputs_after: number;
      /** @description More than half of the fleet's inputs are gone (a fleet of at least `min_fleet_inputs`). */
      inputs_halved: boolean;
      min_fleet_inputs: number;
    } | null;
    ReportRevision: {
      /** @description How the revision was named (`served` and `change set` in a preview). */
      label: string;
      commit: string | null;
      problems: components['schemas']['Problem'][];
    };
    ClusterChange: {
      id: string;
      /** @enum {string} */
      status: 'added' | 'removed' | 'changed';
      environment: string;
      cluster_dns: string;
      /** @description Set when cluster_dns changes; the old URL starts answering 404. */
      previous_cluster_dns?: string;
      previous_environment?: string;
      /** @description Only the endpoints whose answer changes. */
      endpoints: components['schemas']['EndpointChange'][];
    };
    EndpointChange: {
      /** @enum {string} */
      endpoint: 'platform-components' | 'namespaces' | 'rolebindings';
      /** @description Inputs before; `null` where the cluster does not exist (404). */
      before: number | null;
      after: number | null;
      added: string[];
      removed: string[];
      changed: components['schemas']['InputChange'][];
      reordered: boolean;
      /** @description A non-empty list becomes empty (a decommission). */
      emptied: boolean;
      /** @description The new answer is over 900 KiB. */
      oversized: boolean;
    };
    InputChange: {
      id: string;
      fields: {
        /** @example source.oci_tag */
        field: string;
        path: string[];
        /** @description Absent when the field did not exist before. */
        old?: unknown;
        /** @description Absent when the field no longer exists. */
        new?: unknown;
      }[];
    };
    InputListChange: {
      added: string[];
      removed: string[];
      changed: components['schemas']['InputChange'][];
    };
    ChangeSummary: {
      clusters_before: number;
      clusters_after: number;
      clusters_total: number;
      clusters_changed: number;
      by_environment: {
        [key: string]: number;
      };
      inputs_added: number;
      inputs_removed: number;
      inputs_changed: number;
      emptied: {
        cluster: string;
        endpoint: string;
        before: number;
      }[];
      clusters_removed: string[];
      clusters_added: string[];
      dns_changes: {
        cluster: string;
        from: string;
        to: string;
      }[];
      oversized: {
        cluster: string;
        endpoint: string;
      }[];
    };
    /** @description The web UI's settings (`/ui/config.json`). */
    UiSettings: {
      /**
       * @description `API_MODE`: records (the REST paths) and change sets are served in `crud` mode only.
       * @enum {string}
       */
      api_mode: 'read-only' | 'crud';
      /** @description `false` with `METRICS=off`: `GET /api/v2/gitops/fleet` answers `404`. */
      fleet_view: boolean;
      /** @description Where people sign in (`OIDC_UI_CLIENT_ID`); `null` when they paste a token instead. */
      oidc: {
        /**
         * @description `OIDC_ISSUER_URL`.
         * @example https://login.example.com/realms/platform
         */
        issuer: string;
        /**
         * @description `OIDC_UI_CLIENT_ID`, a public client (no secret).
         * @example gitops-config-ui
         */
        client_id: string;
        /**
         * @description `OIDC_UI_SCOPES`.
         * @example [
         *       "openid",
         *       "profile",
         *       "email",
         *       "groups"
         *     ]
         */
        scopes: string[];
      } | null;
    };
    Health: {
      /** @enum {string} */
      status: 'ok';
      /**
       * @description The service's version (package.json; the same as `gitops-config --version`).
       * @example 0.1.0
       */
      version: string;
    };
    /**
     * @description One problem of a revision, as data: which rule (`code`), how bad (`severity`), where
     *     (`at`, and its parts `file`, `line`, `column`, `record`, `field`) and a sentence for a
     *     person. The validator (`gitops-config validate --format json`) reports the same codes,
     *     at the same lines and columns.
     */
    LoadProblem: {
      /**
       * @description The rule the problem breaks (see src/domain/rules/index.ts).
       * @example unknown_field
       */
      code: string;
      /** @enum {string} */
      severity: 'error' | 'warning';
      /**
       * @description `file:line:col` when the line is known, else the file and the field (`file /field`), or `collection/id` and the field, where the problem is.
       * @example clusters/demo-cluster-01.yaml:5:1
       */
      at: string;
      /**
       * @description File in the config repo (git backend).
       * @example clusters/demo-cluster-01.yaml
       */
      file?: string;
      /**
       * @description The line in `file` (1-based) of the key or value the problem is about, or of the
       *     nearest enclosing one when the field is missing. Given for a YAML syntax error, and
       *     for a refused revision's first 200 problems in at most 50 files, where the store
       *     can still read the file as that revision holds it (a commit's file, or a working
       *     tree's file unchanged since). Absent for stores without files (SQLite, memory).
       * @example 5
       */
      line?: number;
      /**
       * @description The column on that line (1-based, in UTF-16 code units, as editors count them); given with `line`.
       * @example 1
       */
      column?: number;
      /**
       * @description The record, as `collection/id`.
       * @example clusters/demo-cluster-01
       */
      record?: string;
      /**
       * @description JSON pointer inside the record; empty for the whole record.
       * @example /environment
       */
      field: string;
      /** @example must be one of dev, qa, uat, prod */
      message: string;
    };
    /** @description Outcome of the latest attempt to load a revision. */
    LoadStatus: {
      /** Format: date-time */
      at: string;
      ok: boolean;
      /** @description The revision that was loaded (absent when the store could not be read at all). */
      revision?: string;
      reason?: components['schemas']['StoreFaultReason'];
      /** @description A refused revision's problems, counted by severity (only when the revision was refused). */
      problem_counts?: {
        error: number;
        warning: number;
      };
      /**
       * @description The codes of a refused revision's problems, each once, sorted.
       * @example [
       *       "dangling_reference",
       *       "unknown_field"
       *     ]
       */
      problem_codes?: string[];
      /** @description Why the load failed (only when `ok` is false). Full view only. */
      error?: string;
      /** @description The problems that made the revision invalid (only when `ok` is false). Full view only. */
      problems?: components['schemas']['LoadProblem'][];
    };
    /**
     * @description Why the store could not be read, as a word (a load or sync that failed rather than one refused).
     * @enum {string}
     */
    StoreFaultReason:
      | 'not_loaded'
      | 'revision_refused'
      | 'locked'
      | 'disk_full'
      | 'remote_unreachable'
      | 'auth_failed'
      | 'remote_refused'
      | 'kept_moving'
      | 'read_only'
      | 'io';
    /** @description Outcome of the latest fetch of a remote config repository (git backend with a remote repo). */
    SyncStatus: {
      /** Format: date-time */
      at?: string;
      ok?: boolean;
      reason?: components['schemas']['StoreFaultReason'];
      /** @description Why it failed, secrets of the URL replaced. Full view only. */
      error?: string;
    };
    /**
     * @description `public`: no token, or a wrong one (states, revisions, counts). `full`: the read or
     *     write token (also problems, error texts, paths, the repository's URL).
     * @enum {string}
     */
    ReadyView: 'public' | 'full';
    /** @description Readiness; more optional fields may be added. Fields marked "full view only" are left out of the public view. */
    Ready: {
      /** @enum {string} */
      status: 'ok';
      /** @enum {string} */
      backend: 'git' | 'sqlite' | 'memory';
      view: components['schemas']['ReadyView'];
      /** @description Clusters in the served revision. */
      clusters?: number;
      /** @description The revision being served (Git commit id, or the SQLite / seed revision). */
      revision: string;
      /**
       * Format: date-time
       * @description When the served revision was loaded.
       */
      loaded_at: string;
      last_load: components['schemas']['LoadStatus'];
      /** @description True when the last load failed and an earlier revision is still served. */
      stale?: boolean;
      /**
       * @description The branch served (git backend).
       * @example main
       */
      branch?: string;
      last_sync?: components['schemas']['SyncStatus'];
      /**
       * Format: date-time
       * @description When a fetch of the remote repository last succeeded.
       */
      last_successful_sync?: string | null;
      /** @description CONFIG_SYNC_INTERVAL (git backend with a remote repo). */
      sync_interval_ms?: number;
      /**
       * @description Git backend with a remote repo: how many other instances of the service this one
       *     has seen push to the branch (named by the `Gitops-Writer` trailer of the commits
       *     that moved the branch under its pushes); each is also logged once as a warning.
       */
      other_writers_seen?: number;
      /** @description The local config folder is a Git repository (git backend on a local folder). */
      git_repository?: boolean;
      /**
       * @description Full view only. The local folder, or the remote repository's URL with its user
       *     info and token query words replaced by `***` (git backend).
       * @example https://git.example.com/platform/config.git
       */
      config_repo?: string;
      /** @description Full view only. Where the remote repository is cloned. */
      clone_dir?: string;
      /** @description Full view only. SEED_FILE (memory backend). */
      seed_file?: string;
      /**
       * @description Full view only. The database file (sqlite backend), or `:memory:`.
       * @example /srv/gitops/data/config.db
       */
      database?: string;
      /**
       * @description The `mode` of `DATABASE_URL` (sqlite backend).
       * @enum {string}
       */
      database_mode?: 'ro' | 'rw' | 'rwc';
      /** @description The database schema version (`PRAGMA user_version`, sqlite backend). */
      schema_version?: number;
      /** @description How long a write waits for another process's lock before it fails with `store_error` (sqlite backend). */
      busy_timeout_ms?: number;
    };
    /** @description Readiness before the first snapshot is loaded (`unavailable`), or while shutting down (`shutting_down`). */
    NotReady: {
      /** @enum {string} */
      status: 'unavailable' | 'shutting_down';
      /** @enum {string} */
      error: 'unavailable';
      /** @description Why; in the public view a failed load is named by its reason only. */
      message: string;
      /** @enum {string} */
      backend: 'git' | 'sqlite' | 'memory';
      view?: components['schemas']['ReadyView'];
      last_sync?: components['schemas']['SyncStatus'];
      /** @description The last attempt to load a revision; absent while none has finished (e.g. the first clone is still failing). */
      last_load?: components['schemas']['LoadStatus'];
    };
    Accepted: {
      /** @enum {string} */
      status: 'accepted' | 'ignored' | 'pong';
      /** @description Why a call was ignored. */
      message?: string;
    };
  };
  responses: {
    /** @description The `If-None-Match` ETag is the record's current ETag; no body. */
    RecordNotModified: {
      headers: {
        ETag: components['headers']['RecordETag'];
        'X-Config-Revision': components['headers']['XConfigRevision'];
        [name: string]: unknown;
      };
      content?: never;
    };
    /** @description The id in the path is not a valid id (error `validation_error`); ids are always safe file names. */
    InvalidId: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": "validation_error",
         *       "message": "\"../x\" is not a valid id: an id is 1-250 characters of A-Z a-z 0-9 . _ -, starting and ending with a letter or digit",
         *       "details": [
         *         {
         *           "path": "id",
         *           "message": "must be 1-250 characters of A-Z a-z 0-9 . _ -, starting and ending with a letter or digit"
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The `If-None-Match` ETag matches; no body. */
    NotModified: {
      headers: {
        ETag: components['headers']['InputsETag'];
        'X-Config-Revision': components['headers']['XConfigRevision'];
        Vary: components['headers']['Vary'];
        'Cache-Control': components['headers']['CacheControl'];
        'X-Content-Type-Options': components['headers']['XContentTypeOptions'];
        'Strict-Transport-Security': components['headers']['StrictTransportSecurity'];
        [name: string]: unknown;
      };
      content?: never;
    };
    /** @description The headers the GET would send (including `Content-Length`), without a body. */
    HeadInputs: {
      headers: {
        ETag: components['headers']['InputsETag'];
        'X-Config-Revision': components['headers']['XConfigRevision'];
        'Content-Encoding': components['headers']['ContentEncoding'];
        Vary: components['headers']['Vary'];
        'Cache-Control': components['headers']['CacheControl'];
        'X-Content-Type-Options': components['headers']['XContentTypeOptions'];
        'Strict-Transport-Security': components['headers']['StrictTransportSecurity'];
        [name: string]: unknown;
      };
      content?: never;
    };
    /** @description The status the GET would answer (401, 403, 404, 500 or 503), without a body. A `401` carries `WWW-Authenticate`. */
    HeadError: {
      headers: {
        'WWW-Authenticate': components['headers']['WWWAuthenticate'];
        [name: string]: unknown;
      };
      content?: never;
    };
    /**
     * @description No credential, or one that is not valid (error `unauthorized`): an unknown token, a
     *     forged or revoked cluster token, an expired person's token. On a write, also the read
     *     token (`AUTH_TOKEN`), as the contract has it: its `WWW-Authenticate` says
     *     `error="insufficient_scope"`, and the message what it may do.
     */
    Unauthorized: {
      headers: {
        'WWW-Authenticate': components['headers']['WWWAuthenticate'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /**
     * @description A valid credential outside its scope (error `forbidden`); the message says what it may
     *     do. A cluster credential on another cluster's endpoints, the listing, the fleet view
     *     or a REST path; a person outside the write groups on a write (the read token on a write
     *     gets `401`, see Unauthorized).
     */
    Forbidden: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": "forbidden",
         *       "message": "this cluster token reads only cluster \"demo-cluster-01\"'s three endpoints (/api/v2/gitops/clusters/demo-cluster-01.k8s.example.com/{platform-components,namespaces,rolebindings}); this path is not one of them"
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description No rollout of this id is served, or rollout progress is off (`METRICS=off`: no poll records). */
    RolloutProgressOff: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /**
     * @description The record does not exist (error `not_found`); or, on the REST paths, the service
     *     runs in read-only mode: the REST endpoints exist only with `API_MODE=crud`, and the
     *     message says so.
     */
    NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description No cluster has this DNS name (error `not_found`). Never an empty `inputs` list. */
    ClusterNotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": "not_found",
         *       "message": "no cluster with cluster_dns demo-cluster-99.k8s.example.com"
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The path exists but not with this method (error `method_not_allowed`). */
    MethodNotAllowed: {
      headers: {
        Allow: components['headers']['Allow'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": "method_not_allowed",
         *       "message": "method DELETE is not allowed on /api/v2/gitops/clusters"
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /**
     * @description The request is malformed or the resulting record is invalid (error
     *     `validation_error`): no body, a body that is not an object, schema
     *     violations, unknown fields, references to records that do not exist, a reference
     *     listed twice, `patches` for a component the cluster does not reference, unknown or
     *     cyclic `depends_on`, a change that would push a cluster's response over 900 KiB, bad
     *     or unknown query parameters, an invalid id, a new id Windows reserves as a device
     *     name (`CON`, `PRN`, `AUX`, `NUL`, `COM1`-`COM9`, `LPT1`-`LPT9`, in any case, also
     *     before a dot), an `id` in the body that differs from the path. `details` lists each problem with a JSON pointer into the record (or the
     *     name of the parameter).
     */
    ValidationError: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /**
     * @description The write conflicts with other stored records (error `conflict`): the id already
     *     exists (create), or differs only in case from an existing id of the collection
     *     (create: on a case-insensitive file system, macOS or Windows, the two would be one
     *     file), the `cluster_dns` is used by another cluster (compared case-insensitively),
     *     or (delete) clusters still reference the record, or other catalog entries name it in
     *     `depends_on`; the message names them. (A reference to a record that does not exist
     *     is a `400`.)
     */
    Conflict: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The `If-Match` ETag is stale; the record has changed since it was read (error `precondition_failed`). */
    PreconditionFailed: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": "precondition_failed",
         *       "message": "clusters/demo-cluster-01 has changed since it was read (If-Match \"0cc175b9c0f1b6a831c399e269772661\" does not match its current ETag); read it again and retry"
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /**
     * @description The body cannot be read, or the record it makes is invalid.
     *
     *     - Error `bad_request`: malformed JSON; arrays and objects nested more than 32 levels
     *       deep; a key given twice in one object (`{"id": "a", "id": "b"}`, also when one is
     *       spelled with escapes, `"\u0069d"`: JSON parsers keep only the last, so the body is
     *       refused rather than read one way; `details` has the key's JSON pointer); a
     *       malformed chunked body (the connection is closed after the answer); a body shorter
     *       than its `Content-Length` says.
     *     - Error `validation_error`: everything `ValidationError` lists: no body, a body that
     *       is not an object, schema violations (unknown fields, a key such as `__proto__`
     *       that is not a valid label, annotation or patch key), references to records that
     *       do not exist, a new id Windows reserves as a device name (`con`, `NUL.team`), and
     *       so on. `details` lists each problem with a JSON pointer.
     */
    BadBody: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /**
     * @description The request headers are larger than 16 KiB, Node's limit (error `headers_too_large`),
     *     on any path. The connection is closed after the answer.
     */
    HeadersTooLarge: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": "headers_too_large",
         *       "message": "the request headers are larger than the limit of 16384 bytes"
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /**
     * @description The request headers or body did not arrive in time (error `request_timeout`), on any
     *     path: the headers within `HTTP_HEADER_TIMEOUT` (10 s by default), the whole request
     *     within `HTTP_REQUEST_TIMEOUT` (30 s). The connection is closed after the answer.
     */
    RequestTimeout: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": "request_timeout",
         *       "message": "the request did not arrive in time"
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The request body is larger than `MAX_BODY_SIZE`, 1 MiB by default (error `payload_too_large`). */
    PayloadTooLarge: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": "payload_too_large",
         *       "message": "the body is larger than the limit of 1048576 bytes"
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The request body is not JSON in UTF-8 (error `unsupported_media_type`). POST and PUT take `application/json`; PATCH takes `application/merge-patch+json` or `application/json` (read the same way); any other `+json` type is read as JSON too. A body without a Content-Type is refused as well, and so is a `charset` other than `utf-8` (JSON between systems is UTF-8). */
    UnsupportedMediaType: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": "unsupported_media_type",
         *       "message": "the body must be JSON: send Content-Type: application/json (got text/plain)"
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /**
     * @description Error `bad_request`: the request itself is malformed (an unknown or repeated query
     *     parameter, a bad value); `details` names each parameter.
     */
    BadRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": "bad_request",
         *       "message": "invalid query: shard: must be <i>/<n>, with 1 <= n <= 4096 and 0 <= i < n (e.g. 0/4)",
         *       "details": [
         *         {
         *           "path": "shard",
         *           "message": "must be <i>/<n>, with 1 <= n <= 4096 and 0 <= i < n (e.g. 0/4)"
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /**
     * @description Error `response_too_large`: the list would pass the consumer's 900 KiB limit; ask for
     *     part of it with `shard` (the message says how many shards) or `environment`.
     */
    ResponseTooLarge: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": "response_too_large",
         *       "message": "the listing would be 1021907 bytes, over the 900 KiB limit (921600 bytes); ask for part of it: ?shard=<i>/<n> (n = 2 or more) or ?environment=<dev|qa|uat|prod>"
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /**
     * @description `internal_error`: an unexpected failure on the server, or a read response that would
     *     exceed 900 KiB (921600 bytes); it is never sent truncated.
     */
    InternalError: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /**
     * @description `503`, nothing was stored. Error `unavailable`: no configuration has been loaded yet,
     *     or the request carries a person's token while the OIDC issuer cannot be reached (the
     *     message names the issuer).
     *     Error `store_error`: the store cannot take the write now, and the message says why:
     *     it holds a revision that was refused (a broken file, a bad row; `details` names the
     *     problems; fix it first), another process holds its lock, the disk is full, the remote
     *     Git repository is unreachable, refuses the credentials or refuses the change, or the
     *     store kept changing under the write (another writer pushing to the same branch) for
     *     `WRITE_TIMEOUT` (10 s by default) of tries. The same fault gives the same answer on
     *     every backend. A `Retry-After` header is set when waiting helps.
     */
    Unavailable: {
      headers: {
        /** @description Seconds to wait before trying again (when waiting helps). */
        'Retry-After'?: number;
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /**
     * @description The change set is malformed (not an object with 1 to 1,000 `writes`; a write's `op`,
     *     `collection`, `id`, `record`, `patch` or `if_match` missing, of the wrong type or
     *     unknown; a `message` with control characters), or the result it makes is invalid
     *     (error `validation_error`). Every entry of `details` names the write by `index` and
     *     says where (`path`: the field of the write for its shape, a JSON pointer into the
     *     record for its content, `<collection>/<id>/...` for another record).
     */
    ChangeSetInvalid: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description A write replaces, patches or deletes a record that is not there (as the writes before it left the records); `details` names it. */
    ChangeSetNotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": "not_found",
         *       "message": "write 3: clusters/prod-ap-1 not found",
         *       "details": [
         *         {
         *           "index": 3,
         *           "path": "",
         *           "message": "clusters/prod-ap-1 not found"
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description A write creates a record that exists, or a `cluster_dns` another cluster holds, or the set deletes a record clusters still reference when it is done (named at the delete); `details` names the write. */
    ChangeSetConflict: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": "conflict",
         *       "message": "write 0: namespaces/team-a is still referenced by clusters: demo-cluster-01; remove those references first",
         *       "details": [
         *         {
         *           "index": 0,
         *           "path": "",
         *           "message": "referenced by 1 cluster(s)"
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description A write's `if_match` is stale; `details` names it, and nothing of the set is stored. */
    ChangeSetPreconditionFailed: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": "precondition_failed",
         *       "message": "write 6: clusters/prod-eu-1 has changed since it was read (If-Match \"q9cZrFbjS0B9lbDEu1P3o2OnBv_\" does not match its current ETag); read it again and retry",
         *       "details": [
         *         {
         *           "index": 6,
         *           "path": "",
         *           "message": "clusters/prod-eu-1 has changed since it was read (If-Match \"q9cZrFbjS0B9lbDEu1P3o2OnBv_\" does not match its current ETag); read it again and retry"
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The stored record. */
    ClusterStored: {
      headers: {
        ETag: components['headers']['RecordETag'];
        'X-Config-Revision': components['headers']['XConfigRevision'];
        'Gitops-Dry-Run': components['headers']['GitopsDryRun'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Cluster'];
      };
    };
    /** @description The stored record. */
    PlatformComponentStored: {
      headers: {
        ETag: components['headers']['RecordETag'];
        'X-Config-Revision': components['headers']['XConfigRevision'];
        'Gitops-Dry-Run': components['headers']['GitopsDryRun'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['PlatformComponent'];
      };
    };
    /** @description The stored record. */
    NamespaceStored: {
      headers: {
        ETag: components['headers']['RecordETag'];
        'X-Config-Revision': components['headers']['XConfigRevision'];
        'Gitops-Dry-Run': components['headers']['GitopsDryRun'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Namespace'];
      };
    };
    /** @description The stored record. */
    RoleBindingStored: {
      headers: {
        ETag: components['headers']['RecordETag'];
        'X-Config-Revision': components['headers']['XConfigRevision'];
        'Gitops-Dry-Run': components['headers']['GitopsDryRun'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['RoleBinding'];
      };
    };
    /** @description The stored record. */
    RolloutStored: {
      headers: {
        ETag: components['headers']['RecordETag'];
        'X-Config-Revision': components['headers']['XConfigRevision'];
        'Gitops-Dry-Run': components['headers']['GitopsDryRun'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Rollout'];
      };
    };
  };
  parameters: {
    /**
     * @description The cluster's FQDN (`cluster_dns` of the cluster record). Matched
     *     case-insensitively, folding only ASCII `A`–`Z` as DNS does; one trailing dot is
     *     ignored (`Demo-Cluster-01.K8s.Example.com.` finds `demo-cluster-01.k8s.example.com`).
     *     A name with characters outside ASCII (the Kelvin sign `K`, U+212A, is not a `k`)
     *     finds no cluster: 404.
     * @example demo-cluster-01.k8s.example.com
     */
    ClusterDns: string;
    /**
     * @description Id of the record.
     * @example demo-cluster-01
     */
    Id: string;
    /**
     * @description One or more ETags (or `*`); when one matches the current response, the answer is `304` without a body.
     * @example "5d41402abc4b2a76b9719d911017c592"
     */
    IfNoneMatch: string;
    /**
     * @description The ETag of the record as last read. If the record has changed since (the ETag no longer matches), the write is refused with `412 precondition_failed`.
     * @example "0cc175b9c0f1b6a831c399e269772661"
     */
    IfMatch: string;
    /**
     * @description `All`: answer exactly as the write would be answered — status, headers, body — and
     *     store nothing (no commit, no transaction, no audit line; the revision served stays).
     *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
     *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
     *     change set's `revision`). Any other value is `400 validation_error`, as in
     *     Kubernetes. A write takes no other query parameter: one it does not take (a
     *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
     *     `400 bad_request` naming it, and nothing is stored.
     * @example All
     */
    DryRun: 'All';
    /**
     * @description The commit message of this write (its Git commit's subject and body; the `message`
     *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
     *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
     *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
     *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
     *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
     *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
     *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
     *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
     *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
     *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
     *     runs with a larger `--max-http-header-size`.
     * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
     */
    CommitMessage: string;
    /**
     * @description With `gzip` (or `*`) at a weight above zero, the body is sent gzip-compressed (`Content-Encoding: gzip`). The Go HTTP client of the consumer sends `gzip` by default. q-values are honoured: `gzip;q=0` refuses gzip even next to `*` (`*, gzip;q=0` gets the plain body), and naming `identity` with a higher weight than gzip asks for the plain body.
     * @example gzip
     */
    AcceptEncoding: string;
    /** @description `false` says the request is not the cluster taking its configuration but a person looking at it (the web UI sends it): the answer is the same, but the fleet view (`GET /api/v2/gitops/fleet`) does not count it as the cluster's poll, so looking at a cluster never makes it look up to date. Any other value, or none, is a poll. */
    GitopsPoll: 'false';
    /**
     * @description Largest number of records to return. Without it, all records from `offset` on are returned.
     * @example 100
     */
    Limit: number;
    /** @description Number of records (in `id` order) to skip. */
    Offset: number;
  };
  requestBodies: never;
  headers: {
    /**
     * @description Strong ETag: a hash of the response body. The same data gives the same ETag on every
     *     replica and every poll. The gzip-encoded variant carries the same hash with the
     *     suffix `-gzip` (for example `"5d41402abc4b2a76b9719d911017c592-gzip"`).
     * @example "5d41402abc4b2a76b9719d911017c592"
     */
    InputsETag: string;
    /**
     * @description Strong ETag of the stored record (a hash of its JSON form, the same on every backend and replica). Send it back in `If-Match` to guard a write, or in `If-None-Match` to revalidate a `GET`.
     * @example "0cc175b9c0f1b6a831c399e269772661"
     */
    RecordETag: string;
    /**
     * @description The revision the answer was computed from (on a write, the revision that holds it); the Git commit id with the `git` backend (with `+dirty.<hash>` while the working tree has uncommitted edits), the SQLite or seed revision otherwise (`seed-<hash>.<n>` after the n-th write with the `memory` backend). Opaque to clients.
     * @example 4f1c2a9e8b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e
     */
    XConfigRevision: string;
    /** @description `true` on every answer to a request with `?dryRun=All`, whatever its status: nothing was stored. */
    GitopsDryRun: 'true';
    /** @description `gzip` when the request's `Accept-Encoding` accepts gzip (see that header); absent otherwise. */
    ContentEncoding: 'gzip';
    /**
     * @description Always `Accept-Encoding`.
     * @example Accept-Encoding
     */
    Vary: string;
    /**
     * @description Always `no-cache`; caches must revalidate (with `If-None-Match`) before reuse.
     * @example no-cache
     */
    CacheControl: string;
    /** @description Always `nosniff`, on every answer of every path (errors included), so a browser never takes an answer for HTML or script. */
    XContentTypeOptions: 'nosniff';
    /**
     * @description Over HTTPS only, on every answer of every path (errors included); `max-age=31536000` (a year), without `includeSubDomains`.
     * @example max-age=31536000
     */
    StrictTransportSecurity: string;
    /**
     * @description Path of the created record.
     * @example /clusters/demo-cluster-01
     */
    Location: string;
    /**
     * @description Number of records that match the filters, before `limit` / `offset`.
     * @example 3
     */
    XTotalCount: number;
    /**
     * @description The two schemes a token may come in, Bearer and Basic. For the read token on a write:
     *     `Bearer realm="gitops-config-api", error="insufficient_scope"` (the token is valid, its
     *     scope too small; RFC 6750 §3.1).
     * @example Bearer realm="gitops-config-api", Basic realm="gitops-config-api", charset="UTF-8"
     */
    WWWAuthenticate: string;
    /**
     * @description The methods the path supports.
     * @example GET, HEAD
     */
    Allow: string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getPlatformComponentInputs: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description One or more ETags (or `*`); when one matches the current response, the answer is `304` without a body.
         * @example "5d41402abc4b2a76b9719d911017c592"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /**
         * @description With `gzip` (or `*`) at a weight above zero, the body is sent gzip-compressed (`Content-Encoding: gzip`). The Go HTTP client of the consumer sends `gzip` by default. q-values are honoured: `gzip;q=0` refuses gzip even next to `*` (`*, gzip;q=0` gets the plain body), and naming `identity` with a higher weight than gzip asks for the plain body.
         * @example gzip
         */
        'Accept-Encoding'?: components['parameters']['AcceptEncoding'];
        /** @description `false` says the request is not the cluster taking its configuration but a person looking at it (the web UI sends it): the answer is the same, but the fleet view (`GET /api/v2/gitops/fleet`) does not count it as the cluster's poll, so looking at a cluster never makes it look up to date. Any other value, or none, is a poll. */
        'Gitops-Poll'?: components['parameters']['GitopsPoll'];
      };
      path: {
        /**
         * @description The cluster's FQDN (`cluster_dns` of the cluster record). Matched
         *     case-insensitively, folding only ASCII `A`–`Z` as DNS does; one trailing dot is
         *     ignored (`Demo-Cluster-01.K8s.Example.com.` finds `demo-cluster-01.k8s.example.com`).
         *     A name with characters outside ASCII (the Kelvin sign `K`, U+212A, is not a `k`)
         *     finds no cluster: 404.
         * @example demo-cluster-01.k8s.example.com
         */
        cluster_dns: components['parameters']['ClusterDns'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The merged inputs. */
      200: {
        headers: {
          ETag: components['headers']['InputsETag'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          'Content-Encoding': components['headers']['ContentEncoding'];
          Vary: components['headers']['Vary'];
          'Cache-Control': components['headers']['CacheControl'];
          'X-Content-Type-Options': components['headers']['XContentTypeOptions'];
          'Strict-Transport-Security': components['headers']['StrictTransportSecurity'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "inputs": [
           *         {
           *           "id": "cert-manager",
           *           "component_path": "cert-manager",
           *           "component_version": "v1.16.1",
           *           "cluster_env_enabled": false,
           *           "depends_on": [],
           *           "enabled": true,
           *           "patches": {},
           *           "cluster": {
           *             "name": "demo-cluster-01",
           *             "dns": "demo-cluster-01.k8s.example.com",
           *             "environment": "dev"
           *           },
           *           "source": {
           *             "oci_url": "oci://quay.io/jetstack/charts/cert-manager",
           *             "oci_tag": "v1.16.1"
           *           }
           *         },
           *         {
           *           "id": "traefik",
           *           "component_path": "traefik",
           *           "component_version": "33.0.0",
           *           "cluster_env_enabled": false,
           *           "depends_on": [
           *             "cert-manager"
           *           ],
           *           "enabled": true,
           *           "patches": {},
           *           "cluster": {
           *             "name": "demo-cluster-01",
           *             "dns": "demo-cluster-01.k8s.example.com",
           *             "environment": "dev"
           *           },
           *           "source": {
           *             "oci_url": "oci://ghcr.io/traefik/helm/traefik",
           *             "oci_tag": "33.0.0"
           *           }
           *         },
           *         {
           *           "id": "podinfo",
           *           "component_path": "apps/podinfo",
           *           "component_version": "6.7.1",
           *           "cluster_env_enabled": true,
           *           "depends_on": [
           *             "traefik"
           *           ],
           *           "enabled": true,
           *           "patches": {
           *             "replicaCount": "3",
           *             "ingress.enabled": "true"
           *           },
           *           "cluster": {
           *             "name": "demo-cluster-01",
           *             "dns": "demo-cluster-01.k8s.example.com",
           *             "environment": "dev"
           *           },
           *           "source": {
           *             "oci_url": "oci://ghcr.io/stefanprodan/charts/podinfo",
           *             "oci_tag": "6.7.2"
           *           }
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['PlatformComponentInputs'];
        };
      };
      304: components['responses']['NotModified'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['ClusterNotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  headPlatformComponentInputs: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description One or more ETags (or `*`); when one matches the current response, the answer is `304` without a body.
         * @example "5d41402abc4b2a76b9719d911017c592"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /**
         * @description With `gzip` (or `*`) at a weight above zero, the body is sent gzip-compressed (`Content-Encoding: gzip`). The Go HTTP client of the consumer sends `gzip` by default. q-values are honoured: `gzip;q=0` refuses gzip even next to `*` (`*, gzip;q=0` gets the plain body), and naming `identity` with a higher weight than gzip asks for the plain body.
         * @example gzip
         */
        'Accept-Encoding'?: components['parameters']['AcceptEncoding'];
      };
      path: {
        /**
         * @description The cluster's FQDN (`cluster_dns` of the cluster record). Matched
         *     case-insensitively, folding only ASCII `A`–`Z` as DNS does; one trailing dot is
         *     ignored (`Demo-Cluster-01.K8s.Example.com.` finds `demo-cluster-01.k8s.example.com`).
         *     A name with characters outside ASCII (the Kelvin sign `K`, U+212A, is not a `k`)
         *     finds no cluster: 404.
         * @example demo-cluster-01.k8s.example.com
         */
        cluster_dns: components['parameters']['ClusterDns'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['HeadInputs'];
      304: components['responses']['NotModified'];
      401: components['responses']['HeadError'];
      403: components['responses']['HeadError'];
      404: components['responses']['HeadError'];
      500: components['responses']['HeadError'];
      503: components['responses']['HeadError'];
    };
  };
  getNamespaceInputs: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description One or more ETags (or `*`); when one matches the current response, the answer is `304` without a body.
         * @example "5d41402abc4b2a76b9719d911017c592"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /**
         * @description With `gzip` (or `*`) at a weight above zero, the body is sent gzip-compressed (`Content-Encoding: gzip`). The Go HTTP client of the consumer sends `gzip` by default. q-values are honoured: `gzip;q=0` refuses gzip even next to `*` (`*, gzip;q=0` gets the plain body), and naming `identity` with a higher weight than gzip asks for the plain body.
         * @example gzip
         */
        'Accept-Encoding'?: components['parameters']['AcceptEncoding'];
        /** @description `false` says the request is not the cluster taking its configuration but a person looking at it (the web UI sends it): the answer is the same, but the fleet view (`GET /api/v2/gitops/fleet`) does not count it as the cluster's poll, so looking at a cluster never makes it look up to date. Any other value, or none, is a poll. */
        'Gitops-Poll'?: components['parameters']['GitopsPoll'];
      };
      path: {
        /**
         * @description The cluster's FQDN (`cluster_dns` of the cluster record). Matched
         *     case-insensitively, folding only ASCII `A`–`Z` as DNS does; one trailing dot is
         *     ignored (`Demo-Cluster-01.K8s.Example.com.` finds `demo-cluster-01.k8s.example.com`).
         *     A name with characters outside ASCII (the Kelvin sign `K`, U+212A, is not a `k`)
         *     finds no cluster: 404.
         * @example demo-cluster-01.k8s.example.com
         */
        cluster_dns: components['parameters']['ClusterDns'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The namespace inputs. */
      200: {
        headers: {
          ETag: components['headers']['InputsETag'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          'Content-Encoding': components['headers']['ContentEncoding'];
          Vary: components['headers']['Vary'];
          'Cache-Control': components['headers']['CacheControl'];
          'X-Content-Type-Options': components['headers']['XContentTypeOptions'];
          'Strict-Transport-Security': components['headers']['StrictTransportSecurity'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "inputs": [
           *         {
           *           "id": "team-a",
           *           "labels": {
           *             "team": "team-a",
           *             "pod-security.kubernetes.io/enforce": "restricted"
           *           },
           *           "annotations": {
           *             "owner": "team-a@example.com"
           *           },
           *           "cluster": {
           *             "name": "demo-cluster-01",
           *             "dns": "demo-cluster-01.k8s.example.com",
           *             "environment": "dev"
           *           }
           *         },
           *         {
           *           "id": "monitoring",
           *           "labels": {},
           *           "annotations": {},
           *           "cluster": {
           *             "name": "demo-cluster-01",
           *             "dns": "demo-cluster-01.k8s.example.com",
           *             "environment": "dev"
           *           }
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['NamespaceInputs'];
        };
      };
      304: components['responses']['NotModified'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['ClusterNotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  headNamespaceInputs: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description One or more ETags (or `*`); when one matches the current response, the answer is `304` without a body.
         * @example "5d41402abc4b2a76b9719d911017c592"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /**
         * @description With `gzip` (or `*`) at a weight above zero, the body is sent gzip-compressed (`Content-Encoding: gzip`). The Go HTTP client of the consumer sends `gzip` by default. q-values are honoured: `gzip;q=0` refuses gzip even next to `*` (`*, gzip;q=0` gets the plain body), and naming `identity` with a higher weight than gzip asks for the plain body.
         * @example gzip
         */
        'Accept-Encoding'?: components['parameters']['AcceptEncoding'];
      };
      path: {
        /**
         * @description The cluster's FQDN (`cluster_dns` of the cluster record). Matched
         *     case-insensitively, folding only ASCII `A`–`Z` as DNS does; one trailing dot is
         *     ignored (`Demo-Cluster-01.K8s.Example.com.` finds `demo-cluster-01.k8s.example.com`).
         *     A name with characters outside ASCII (the Kelvin sign `K`, U+212A, is not a `k`)
         *     finds no cluster: 404.
         * @example demo-cluster-01.k8s.example.com
         */
        cluster_dns: components['parameters']['ClusterDns'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['HeadInputs'];
      304: components['responses']['NotModified'];
      401: components['responses']['HeadError'];
      403: components['responses']['HeadError'];
      404: components['responses']['HeadError'];
      500: components['responses']['HeadError'];
      503: components['responses']['HeadError'];
    };
  };
  getRoleBindingInputs: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description One or more ETags (or `*`); when one matches the current response, the answer is `304` without a body.
         * @example "5d41402abc4b2a76b9719d911017c592"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /**
         * @description With `gzip` (or `*`) at a weight above zero, the body is sent gzip-compressed (`Content-Encoding: gzip`). The Go HTTP client of the consumer sends `gzip` by default. q-values are honoured: `gzip;q=0` refuses gzip even next to `*` (`*, gzip;q=0` gets the plain body), and naming `identity` with a higher weight than gzip asks for the plain body.
         * @example gzip
         */
        'Accept-Encoding'?: components['parameters']['AcceptEncoding'];
        /** @description `false` says the request is not the cluster taking its configuration but a person looking at it (the web UI sends it): the answer is the same, but the fleet view (`GET /api/v2/gitops/fleet`) does not count it as the cluster's poll, so looking at a cluster never makes it look up to date. Any other value, or none, is a poll. */
        'Gitops-Poll'?: components['parameters']['GitopsPoll'];
      };
      path: {
        /**
         * @description The cluster's FQDN (`cluster_dns` of the cluster record). Matched
         *     case-insensitively, folding only ASCII `A`–`Z` as DNS does; one trailing dot is
         *     ignored (`Demo-Cluster-01.K8s.Example.com.` finds `demo-cluster-01.k8s.example.com`).
         *     A name with characters outside ASCII (the Kelvin sign `K`, U+212A, is not a `k`)
         *     finds no cluster: 404.
         * @example demo-cluster-01.k8s.example.com
         */
        cluster_dns: components['parameters']['ClusterDns'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The rolebinding inputs. */
      200: {
        headers: {
          ETag: components['headers']['InputsETag'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          'Content-Encoding': components['headers']['ContentEncoding'];
          Vary: components['headers']['Vary'];
          'Cache-Control': components['headers']['CacheControl'];
          'X-Content-Type-Options': components['headers']['XContentTypeOptions'];
          'Strict-Transport-Security': components['headers']['StrictTransportSecurity'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "inputs": [
           *         {
           *           "id": "platform-admins",
           *           "role": "cluster-admin",
           *           "subjects": [
           *             {
           *               "kind": "Group",
           *               "name": "platform-admins",
           *               "apiGroup": "rbac.authorization.k8s.io"
           *             }
           *           ],
           *           "cluster": {
           *             "name": "demo-cluster-01",
           *             "dns": "demo-cluster-01.k8s.example.com",
           *             "environment": "dev"
           *           }
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['RoleBindingInputs'];
        };
      };
      304: components['responses']['NotModified'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['ClusterNotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  headRoleBindingInputs: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description One or more ETags (or `*`); when one matches the current response, the answer is `304` without a body.
         * @example "5d41402abc4b2a76b9719d911017c592"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /**
         * @description With `gzip` (or `*`) at a weight above zero, the body is sent gzip-compressed (`Content-Encoding: gzip`). The Go HTTP client of the consumer sends `gzip` by default. q-values are honoured: `gzip;q=0` refuses gzip even next to `*` (`*, gzip;q=0` gets the plain body), and naming `identity` with a higher weight than gzip asks for the plain body.
         * @example gzip
         */
        'Accept-Encoding'?: components['parameters']['AcceptEncoding'];
      };
      path: {
        /**
         * @description The cluster's FQDN (`cluster_dns` of the cluster record). Matched
         *     case-insensitively, folding only ASCII `A`–`Z` as DNS does; one trailing dot is
         *     ignored (`Demo-Cluster-01.K8s.Example.com.` finds `demo-cluster-01.k8s.example.com`).
         *     A name with characters outside ASCII (the Kelvin sign `K`, U+212A, is not a `k`)
         *     finds no cluster: 404.
         * @example demo-cluster-01.k8s.example.com
         */
        cluster_dns: components['parameters']['ClusterDns'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['HeadInputs'];
      304: components['responses']['NotModified'];
      401: components['responses']['HeadError'];
      403: components['responses']['HeadError'];
      404: components['responses']['HeadError'];
      500: components['responses']['HeadError'];
      503: components['responses']['HeadError'];
    };
  };
  getClusterInputs: {
    parameters: {
      query?: {
        /** @description Only the clusters of this environment. */
        environment?: components['schemas']['Environment'];
        /**
         * @description `<i>/<n>` (1 ≤ n ≤ 4096, 0 ≤ i < n): only the clusters whose shard is `i` when the
         *     fleet is cut in `n` shards. A cluster's shard is the first 4 bytes of the SHA-256
         *     of its `id` (UTF-8), read as an unsigned big-endian integer, modulo `n`.
         * @example 0/4
         */
        shard?: string;
      };
      header?: {
        /**
         * @description One or more ETags (or `*`); when one matches the current response, the answer is `304` without a body.
         * @example "5d41402abc4b2a76b9719d911017c592"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /**
         * @description With `gzip` (or `*`) at a weight above zero, the body is sent gzip-compressed (`Content-Encoding: gzip`). The Go HTTP client of the consumer sends `gzip` by default. q-values are honoured: `gzip;q=0` refuses gzip even next to `*` (`*, gzip;q=0` gets the plain body), and naming `identity` with a higher weight than gzip asks for the plain body.
         * @example gzip
         */
        'Accept-Encoding'?: components['parameters']['AcceptEncoding'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description All clusters, or those the filters select. */
      200: {
        headers: {
          ETag: components['headers']['InputsETag'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          'Content-Encoding': components['headers']['ContentEncoding'];
          Vary: components['headers']['Vary'];
          'Cache-Control': components['headers']['CacheControl'];
          'X-Content-Type-Options': components['headers']['XContentTypeOptions'];
          'Strict-Transport-Security': components['headers']['StrictTransportSecurity'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "inputs": [
           *         {
           *           "id": "demo-cluster-01",
           *           "cluster_name": "demo-cluster-01",
           *           "cluster_dns": "demo-cluster-01.k8s.example.com",
           *           "environment": "dev"
           *         },
           *         {
           *           "id": "demo-cluster-02",
           *           "cluster_name": "demo-cluster-02",
           *           "cluster_dns": "demo-cluster-02.k8s.example.com",
           *           "environment": "prod"
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['ClusterSummaryInputs'];
        };
      };
      304: components['responses']['NotModified'];
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ResponseTooLarge'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  headClusterInputs: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description One or more ETags (or `*`); when one matches the current response, the answer is `304` without a body.
         * @example "5d41402abc4b2a76b9719d911017c592"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
        /**
         * @description With `gzip` (or `*`) at a weight above zero, the body is sent gzip-compressed (`Content-Encoding: gzip`). The Go HTTP client of the consumer sends `gzip` by default. q-values are honoured: `gzip;q=0` refuses gzip even next to `*` (`*, gzip;q=0` gets the plain body), and naming `identity` with a higher weight than gzip asks for the plain body.
         * @example gzip
         */
        'Accept-Encoding'?: components['parameters']['AcceptEncoding'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['HeadInputs'];
      304: components['responses']['NotModified'];
      401: components['responses']['HeadError'];
      403: components['responses']['HeadError'];
      500: components['responses']['HeadError'];
      503: components['responses']['HeadError'];
    };
  };
  getFleetView: {
    parameters: {
      query?: {
        /** @description Only the clusters in this state (the summary still counts all). */
        state?: components['schemas']['FleetState'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The fleet, cluster by cluster. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "revision": "4f1c2a9e8b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e",
           *       "summary": {
           *         "clusters": 2,
           *         "up_to_date": 0,
           *         "behind": 1,
           *         "never_seen": 1
           *       },
           *       "clusters": [
           *         {
           *           "id": "demo-cluster-01",
           *           "cluster_dns": "demo-cluster-01.k8s.example.com",
           *           "state": "behind",
           *           "up_to_date": false,
           *           "last_seen": "2025-01-15T10:45:02.114Z",
           *           "endpoints": {
           *             "platform-components": {
           *               "last_poll": "2025-01-15T10:45:02.114Z",
           *               "etag_served": "\"Yg2qa6ofVryl3TnMbhmba3\"",
           *               "etag_current": "\"c2VjcmV0LWV0YWctbmV3MQ\"",
           *               "up_to_date": false
           *             },
           *             "namespaces": {
           *               "last_poll": "2025-01-15T10:45:02.090Z",
           *               "etag_served": "\"JQEKuai3ekqx7w3y3didtv\"",
           *               "etag_current": "\"JQEKuai3ekqx7w3y3didtv\"",
           *               "up_to_date": true
           *             },
           *             "rolebindings": {
           *               "last_poll": null,
           *               "etag_served": null,
           *               "etag_current": null,
           *               "up_to_date": null
           *             }
           *           }
           *         },
           *         {
           *           "id": "demo-cluster-02",
           *           "cluster_dns": "demo-cluster-02.k8s.example.com",
           *           "state": "never_seen",
           *           "up_to_date": false,
           *           "last_seen": null,
           *           "endpoints": {
           *             "platform-components": {
           *               "last_poll": null,
           *               "etag_served": null,
           *               "etag_current": null,
           *               "up_to_date": null
           *             },
           *             "namespaces": {
           *               "last_poll": null,
           *               "etag_served": null,
           *               "etag_current": null,
           *               "up_to_date": null
           *             },
           *             "rolebindings": {
           *               "last_poll": null,
           *               "etag_served": null,
           *               "etag_current": null,
           *               "up_to_date": null
           *             }
           *           }
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['FleetView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description The fleet view is off (`METRICS=off`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": "not_found",
           *       "message": "the fleet view is off in this service (METRICS=off)"
           *     }
           */
          'application/json': components['schemas']['Error'];
        };
      };
      405: components['responses']['MethodNotAllowed'];
      503: components['responses']['Unavailable'];
    };
  };
  listRolloutProgress: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every rollout served, with its state and its clusters by state. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "rollouts": [
           *         {
           *           "id": "traefik-34",
           *           "component": "traefik",
           *           "set": {
           *             "component_version": "34.0.0",
           *             "oci_tag": "34.0.0"
           *           },
           *           "state": "waiting",
           *           "reason": "waits for approval of wave non-prod",
           *           "released": 1,
           *           "steps": 3,
           *           "clusters": {
           *             "pending": 3,
           *             "released": 0,
           *             "fetched": 1,
           *             "succeeded": 0,
           *             "failed": 0,
           *             "offline": 0,
           *             "pinned": 0
           *           }
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['RolloutProgressList'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['RolloutProgressOff'];
      405: components['responses']['MethodNotAllowed'];
      503: components['responses']['Unavailable'];
    };
  };
  getRolloutProgress: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The rollout's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The rollout, step by step. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "traefik-34",
           *       "component": "traefik",
           *       "set": {
           *         "component_version": "34.0.0",
           *         "oci_tag": "34.0.0"
           *       },
           *       "state": "running",
           *       "reason": "2 of 2 clusters have not fetched: qa-eu-1, uat-us-1",
           *       "released": 2,
           *       "clusters": {
           *         "pending": 1,
           *         "released": 2,
           *         "fetched": 1,
           *         "succeeded": 0,
           *         "failed": 0,
           *         "offline": 0,
           *         "pinned": 0
           *       },
           *       "steps": [
           *         {
           *           "step": 1,
           *           "wave": "canary",
           *           "released_in": "8d2f0c4b1e7a9f3c5d6b2a1e0f9c8d7b6a5e4f3c",
           *           "released_at": "2025-03-04T14:00:01.204Z",
           *           "done_at": "2025-03-04T14:01:12.530Z",
           *           "soak_ends_at": "2025-03-04T14:31:12.530Z",
           *           "clusters": [
           *             {
           *               "id": "dev-eu-1",
           *               "state": "fetched",
           *               "since": "2025-03-04T14:01:11.987Z"
           *             }
           *           ]
           *         },
           *         {
           *           "step": 2,
           *           "wave": "non-prod",
           *           "released_in": "1c9e7d5b3a1f2e4d6c8b0a9f7e5d3c1b2a4f6e8d",
           *           "released_at": "2025-03-05T09:12:44.018Z",
           *           "done_at": null,
           *           "soak_ends_at": null,
           *           "clusters": [
           *             {
           *               "id": "qa-eu-1",
           *               "state": "released",
           *               "since": "2025-03-05T09:12:44.018Z"
           *             },
           *             {
           *               "id": "uat-us-1",
           *               "state": "offline",
           *               "since": "2025-03-05T09:42:44.018Z",
           *               "message": "no poll since 08:55 UTC"
           *             }
           *           ]
           *         },
           *         {
           *           "step": 3,
           *           "wave": "prod",
           *           "released_in": null,
           *           "released_at": null,
           *           "done_at": null,
           *           "soak_ends_at": null,
           *           "clusters": [
           *             {
           *               "id": "prod-eu-1",
           *               "state": "pending",
           *               "since": null
           *             }
           *           ]
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['RolloutProgressDetail'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['RolloutProgressOff'];
      405: components['responses']['MethodNotAllowed'];
      503: components['responses']['Unavailable'];
    };
  };
  getWhoami: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The caller. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Whoami'];
        };
      };
      401: components['responses']['Unauthorized'];
      405: components['responses']['MethodNotAllowed'];
      503: components['responses']['Unavailable'];
    };
  };
  postEvent: {
    parameters: {
      query?: never;
      header?: {
        /** @description The generic-hmac signature, `sha256=<hex HMAC-SHA256 of the body>` keyed by the cluster's token. */
        'X-Signature'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "involvedObject": {
         *         "kind": "HelmRelease",
         *         "namespace": "flux-system",
         *         "name": "kube-prometheus-stack",
         *         "uid": "7d0cdc51-ddcf-4743-b223-83ca5c699632",
         *         "apiVersion": "helm.toolkit.fluxcd.io/v2"
         *       },
         *       "severity": "info",
         *       "timestamp": "2025-03-04T14:02:05Z",
         *       "message": "Helm upgrade succeeded for release monitoring/kube-prometheus-stack.v7 with chart kube-prometheus-stack@67.5.0",
         *       "reason": "UpgradeSucceeded",
         *       "metadata": {
         *         "cluster": "dev-eu-1",
         *         "revision": "67.5.0"
         *       },
         *       "reportingController": "helm-controller"
         *     }
         */
        'application/json': components['schemas']['FluxEvent'];
      };
    };
    responses: {
      /** @description The event is kept (or was kept before). */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'accepted' | 'duplicate';
            message?: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      405: components['responses']['MethodNotAllowed'];
      413: components['responses']['PayloadTooLarge'];
      /** @description The cluster sent more events than its allowance (error `too_many_requests`); this one is not kept. */
      429: {
        headers: {
          /** @description Seconds until the cluster may send again. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": "too_many_requests",
           *       "message": "cluster \"dev-eu-1\" sent more than 100 events at once or 10 a second (EVENTS_BURST, EVENTS_RATE); this event is not kept"
           *     }
           */
          'application/json': components['schemas']['Error'];
        };
      };
      503: components['responses']['Unavailable'];
    };
  };
  applyChangeSet: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ChangeSet'];
      };
    };
    responses: {
      /** @description Stored as one revision (or, with `unchanged`, nothing to store; or a dry run). */
      201: {
        headers: {
          'X-Config-Revision': components['headers']['XConfigRevision'];
          'Gitops-Dry-Run': components['headers']['GitopsDryRun'];
          /** @description Always `no-store`. */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ChangeSetStored'];
        };
      };
      400: components['responses']['ChangeSetInvalid'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['ChangeSetNotFound'];
      405: components['responses']['MethodNotAllowed'];
      409: components['responses']['ChangeSetConflict'];
      412: components['responses']['ChangeSetPreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  listRevisions: {
    parameters: {
      query?: {
        /** @description Only the revisions that changed this cluster's answers (the cluster's id). */
        cluster?: components['schemas']['Id'];
        /**
         * @description Only the revisions that created, changed or removed this rollout's record (the
         *     rollout's id): its releases, approvals, pauses, resumptions and roll-backs, whoever
         *     made them. With `cluster`, the revisions that did both.
         */
        rollout?: components['schemas']['Id'];
        /** @description At most this many revisions (a page also ends once it holds about 1 MiB). */
        limit?: number;
        /** @description Only the revisions judged before this one (the `next` of the page before). */
        before?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The revisions, newest first. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "revisions": [
           *         {
           *           "revision": "9b2e4c1d0a8f7e6d5c4b3a29180f7e6d5c4b3a29",
           *           "result": "refused",
           *           "judged_at": "2025-01-15T10:52:11.406Z",
           *           "author": {
           *             "name": "Pat Person",
           *             "email": "pat@example.com"
           *           },
           *           "time": "2025-01-15T10:52:09.000Z",
           *           "message": "drop team-b's labels",
           *           "message_truncated": false,
           *           "clusters_changed": 0,
           *           "clusters": [],
           *           "problems_count": 1,
           *           "problems": [
           *             {
           *               "code": "wrong_type",
           *               "severity": "error",
           *               "at": "namespaces/team-b.yaml:2:9",
           *               "file": "namespaces/team-b.yaml",
           *               "line": 2,
           *               "column": 9,
           *               "record": "namespaces/team-b",
           *               "field": "/labels/tier",
           *               "message": "must be a string (quote it: \"3\")"
           *             }
           *           ]
           *         },
           *         {
           *           "revision": "4f1c2a9e8b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e",
           *           "result": "published",
           *           "judged_at": "2025-01-15T10:45:01.992Z",
           *           "author": {
           *             "name": "Alice Admin",
           *             "email": "alice@example.com"
           *           },
           *           "time": "2025-01-15T10:45:01.000Z",
           *           "message": "podinfo 6.8.0 for prod",
           *           "message_truncated": false,
           *           "clusters_changed": 2,
           *           "clusters": [
           *             "demo-cluster-01",
           *             "demo-cluster-02"
           *           ],
           *           "problems": [],
           *           "problems_count": 0
           *         }
           *       ],
           *       "next": "4f1c2a9e8b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e"
           *     }
           */
          'application/json': components['schemas']['RevisionHistory'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      405: components['responses']['MethodNotAllowed'];
      503: components['responses']['Unavailable'];
    };
  };
  previewChangeSet: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "message": "podinfo 6.8.0 for every prod cluster",
         *       "writes": [
         *         {
         *           "op": "patch",
         *           "collection": "platform_components",
         *           "id": "podinfo",
         *           "patch": {
         *             "component_version": "6.8.0",
         *             "oci_tag": "6.8.0"
         *           }
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['ChangeSet'];
      };
    };
    responses: {
      /** @description What the change set would do. Nothing is stored. */
      200: {
        headers: {
          /** @description The served revision the change set was applied to. */
          'X-Config-Revision'?: string;
          /** @description Always `no-store`. */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "publishable": true,
           *       "problems": [],
           *       "guard": {
           *         "verdict": "pass",
           *         "shrink_allowed": false,
           *         "emptied_clusters": [],
           *         "emptied_limit": 2,
           *         "inputs_before": 11,
           *         "inputs_after": 11,
           *         "inputs_halved": false,
           *         "min_fleet_inputs": 10
           *       },
           *       "base": {
           *         "label": "served",
           *         "commit": "4f1c2a9e8b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e",
           *         "problems": []
           *       },
           *       "head": {
           *         "label": "change set",
           *         "commit": null,
           *         "problems": []
           *       },
           *       "verdict": {
           *         "publish": true,
           *         "problems": []
           *       },
           *       "clusters": [
           *         {
           *           "id": "demo-cluster-01",
           *           "status": "changed",
           *           "environment": "prod",
           *           "cluster_dns": "demo-cluster-01.k8s.example.com",
           *           "endpoints": [
           *             {
           *               "endpoint": "platform-components",
           *               "before": 3,
           *               "after": 3,
           *               "added": [],
           *               "removed": [],
           *               "changed": [
           *                 {
           *                   "id": "podinfo",
           *                   "fields": [
           *                     {
           *                       "field": "component_version",
           *                       "path": [
           *                         "component_version"
           *                       ],
           *                       "old": "6.7.1",
           *                       "new": "6.8.0"
           *                     },
           *                     {
           *                       "field": "source.oci_tag",
           *                       "path": [
           *                         "source",
           *                         "oci_tag"
           *                       ],
           *                       "old": "6.7.1",
           *                       "new": "6.8.0"
           *                     }
           *                   ]
           *                 }
           *               ],
           *               "reordered": false,
           *               "emptied": false,
           *               "oversized": false
           *             }
           *           ]
           *         }
           *       ],
           *       "listing": {
           *         "added": [],
           *         "removed": [],
           *         "changed": []
           *       },
           *       "summary": {
           *         "clusters_before": 4,
           *         "clusters_after": 4,
           *         "clusters_total": 4,
           *         "clusters_changed": 1,
           *         "by_environment": {
           *           "prod": 1
           *         },
           *         "inputs_added": 0,
           *         "inputs_removed": 0,
           *         "inputs_changed": 1,
           *         "emptied": [],
           *         "clusters_removed": [],
           *         "clusters_added": [],
           *         "dns_changes": [],
           *         "oversized": []
           *       }
           *     }
           */
          'application/json': components['schemas']['ChangeReport'];
        };
      };
      400: components['responses']['ValidationError'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      405: components['responses']['MethodNotAllowed'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      503: components['responses']['Unavailable'];
    };
  };
  getHealth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The process is alive. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "status": "ok",
           *       "version": "0.1.0"
           *     }
           */
          'application/json': components['schemas']['Health'];
        };
      };
    };
  };
  getReady: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A snapshot is loaded and served. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Ready'];
        };
      };
      /** @description No configuration snapshot has been loaded yet, or the service is shutting down. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NotReady'];
        };
      };
    };
  };
  getWebUi: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The page. */
      200: {
        headers: {
          'Content-Security-Policy'?: string;
          'Referrer-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description The copy the client holds is current (`If-None-Match`). */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The UI is off (`UI=off`) or was not built, or a file under `/ui/assets/` does not exist. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": "not_found",
           *       "message": "the web UI is off in this service (UI=off)"
           *     }
           */
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getWebUiSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The UI's settings. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "api_mode": "crud",
           *       "fleet_view": true,
           *       "oidc": {
           *         "issuer": "https://login.example.com/realms/platform",
           *         "client_id": "gitops-config-ui",
           *         "scopes": [
           *           "openid",
           *           "profile",
           *           "email",
           *           "groups"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['UiSettings'];
        };
      };
      /** @description The copy the client holds is current (`If-None-Match`). */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The UI is off (`UI=off`) or was not built. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": "not_found",
           *       "message": "the web UI is off in this service (UI=off)"
           *     }
           */
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getOpenApiDocument: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The OpenAPI 3.0 document. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/yaml': string;
        };
      };
    };
  };
  getMetrics: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every series, in the Prometheus text format. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example # HELP gitops_config_revision_info The revision served (X-Config-Revision): always 1, the revision is the label.
           *     # TYPE gitops_config_revision_info gauge
           *     gitops_config_revision_info{revision="4f1c2a9e8b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e"} 1
           */
          'text/plain': string;
        };
      };
      /** @description Metrics are off (`METRICS=off`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": "not_found",
           *       "message": "metrics are off in this service (METRICS=off)"
           *     }
           */
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postGitWebhook: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description GitHub signature, `sha256=<hex HMAC-SHA256 of the raw body>`.
         * @example sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17
         */
        'X-Hub-Signature-256'?: string;
        /**
         * @description GitHub's event; `push` and `ping` are acted on, others ignored.
         * @example push
         */
        'X-GitHub-Event'?: string;
        /** @description GitHub's delivery id; a delivery seen lately is not acted on again. */
        'X-GitHub-Delivery'?: string;
        /** @description GitLab secret token, compared with `WEBHOOK_SECRET` in constant time. */
        'X-Gitlab-Token'?: string;
        /**
         * @description GitLab's event; `Push Hook` and `System Hook` are acted on, others ignored.
         * @example Push Hook
         */
        'X-Gitlab-Event'?: string;
        /** @description GitLab's id of a delivery, kept across its retries; a delivery seen lately is not acted on again. */
        'Idempotency-Key'?: string;
        /** @description GitLab's id of the event; an event seen lately is not acted on again. */
        'X-Gitlab-Event-UUID'?: string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description The push event payload of the Git host; only `ref` is read. At most 25 MiB. */
    requestBody?: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description GitHub's ping event, answered without a sync. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "status": "pong"
           *     }
           */
          'application/json': components['schemas']['Accepted'];
        };
      };
      /** @description Accepted (a sync has been triggered), or ignored (a push to another branch, a delivery handled before, an event that is no push). */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Accepted'];
        };
      };
      /** @description An event header that is not an event name (answered before the body, the connection closed), or a body that is not JSON. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": "bad_request",
           *       "message": "X-GitHub-Event is not an event name"
           *     }
           */
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid signature / token. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": "unauthorized",
           *       "message": "the webhook signature (X-Hub-Signature-256) does not match the body"
           *     }
           */
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The webhook is disabled (`WEBHOOK_SECRET` is not set). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": "not_found",
           *       "message": "the git webhook is disabled; set WEBHOOK_SECRET to enable it"
           *     }
           */
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The body is larger than 25 MiB (the `Content-Length` says so, or the body grew past it); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": "payload_too_large",
           *       "message": "the webhook body is larger than 26214400 bytes (25 MiB, the most a Git host sends)"
           *     }
           */
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  peerAnnounce: {
    parameters: {
      query: {
        revision: string;
        /** @description The announcing process's instance id. */
        from: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Acknowledged. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PeerAnswer'];
        };
      };
      401: components['responses']['Unauthorized'];
    };
  };
  peerSync: {
    parameters: {
      query: {
        from: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A fetch is under way. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PeerAnswer'];
        };
      };
      401: components['responses']['Unauthorized'];
    };
  };
  peerPolls: {
    parameters: {
      query: {
        from: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The poll records. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            instance: string;
            revision: string | null;
            endpoints: string[];
            polls: unknown[][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
    };
  };
  peerEvents: {
    parameters: {
      query: {
        from: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The events kept. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            instance: string;
            revision: string | null;
            events: unknown[][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
    };
  };
  listClusters: {
    parameters: {
      query?: {
        /**
         * @description Largest number of records to return. Without it, all records from `offset` on are returned.
         * @example 100
         */
        limit?: components['parameters']['Limit'];
        /** @description Number of records (in `id` order) to skip. */
        offset?: components['parameters']['Offset'];
        /** @description Only clusters of this environment. */
        environment?: components['schemas']['Environment'];
        /**
         * @description Only the cluster with this DNS name (matched case-insensitively, one trailing dot ignored).
         * @example demo-cluster-01.k8s.example.com
         */
        cluster_dns?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The page of cluster records. */
      200: {
        headers: {
          'X-Total-Count': components['headers']['XTotalCount'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": "demo-cluster-01",
           *         "cluster_name": "demo-cluster-01",
           *         "cluster_dns": "demo-cluster-01.k8s.example.com",
           *         "environment": "dev",
           *         "credential_generation": 0,
           *         "receiver_url": null,
           *         "platform_components": [
           *           {
           *             "id": "cert-manager",
           *             "enabled": true
           *           },
           *           {
           *             "id": "traefik",
           *             "enabled": true
           *           },
           *           {
           *             "id": "podinfo",
           *             "enabled": true,
           *             "oci_tag": "6.7.2"
           *           }
           *         ],
           *         "namespaces": [
           *           {
           *             "id": "team-a"
           *           },
           *           {
           *             "id": "monitoring"
           *           }
           *         ],
           *         "rolebindings": [
           *           {
           *             "id": "platform-admins"
           *           }
           *         ],
           *         "patches": {
           *           "podinfo": {
           *             "replicaCount": "3",
           *             "ingress.enabled": "true"
           *           }
           *         }
           *       }
           *     ]
           */
          'application/json': components['schemas']['Cluster'][];
        };
      };
      400: components['responses']['ValidationError'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  createCluster: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "demo-cluster-01",
         *       "cluster_name": "demo-cluster-01",
         *       "cluster_dns": "demo-cluster-01.k8s.example.com",
         *       "environment": "dev",
         *       "platform_components": [
         *         {
         *           "id": "cert-manager",
         *           "enabled": true
         *         },
         *         {
         *           "id": "traefik",
         *           "enabled": true
         *         },
         *         {
         *           "id": "podinfo",
         *           "enabled": true,
         *           "oci_tag": "6.7.2"
         *         }
         *       ],
         *       "namespaces": [
         *         {
         *           "id": "team-a"
         *         }
         *       ],
         *       "rolebindings": [
         *         {
         *           "id": "platform-admins"
         *         }
         *       ],
         *       "patches": {
         *         "podinfo": {
         *           "replicaCount": "3"
         *         }
         *       }
         *     }
         */
        'application/json': components['schemas']['ClusterCreate'];
      };
    };
    responses: {
      /** @description Created; the body is the stored record. */
      201: {
        headers: {
          Location: components['headers']['Location'];
          ETag: components['headers']['RecordETag'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          'Gitops-Dry-Run': components['headers']['GitopsDryRun'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Cluster'];
        };
      };
      400: components['responses']['BadBody'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  getCluster: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description One or more ETags (or `*`); when one matches the current response, the answer is `304` without a body.
         * @example "5d41402abc4b2a76b9719d911017c592"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The cluster record. */
      200: {
        headers: {
          ETag: components['headers']['RecordETag'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Cluster'];
        };
      };
      304: components['responses']['RecordNotModified'];
      400: components['responses']['InvalidId'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  replaceCluster: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The ETag of the record as last read. If the record has changed since (the ETag no longer matches), the write is refused with `412 precondition_failed`.
         * @example "0cc175b9c0f1b6a831c399e269772661"
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "cluster_name": "demo-cluster-01",
         *       "cluster_dns": "demo-cluster-01.k8s.example.com",
         *       "environment": "dev",
         *       "platform_components": [
         *         {
         *           "id": "cert-manager",
         *           "enabled": true
         *         },
         *         {
         *           "id": "traefik",
         *           "enabled": true
         *         },
         *         {
         *           "id": "podinfo",
         *           "enabled": false
         *         }
         *       ],
         *       "namespaces": [
         *         {
         *           "id": "team-a"
         *         }
         *       ],
         *       "rolebindings": [
         *         {
         *           "id": "platform-admins"
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['ClusterReplace'];
      };
    };
    responses: {
      200: components['responses']['ClusterStored'];
      400: components['responses']['BadBody'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  deleteCluster: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The ETag of the record as last read. If the record has changed since (the ETag no longer matches), the write is refused with `412 precondition_failed`.
         * @example "0cc175b9c0f1b6a831c399e269772661"
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted (the record's file is removed in one commit with the git backend). */
      204: {
        headers: {
          'X-Config-Revision': components['headers']['XConfigRevision'];
          'Gitops-Dry-Run': components['headers']['GitopsDryRun'];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['InvalidId'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      412: components['responses']['PreconditionFailed'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  patchCluster: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The ETag of the record as last read. If the record has changed since (the ETag no longer matches), the write is refused with `412 precondition_failed`.
         * @example "0cc175b9c0f1b6a831c399e269772661"
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "patches": {
         *         "podinfo": {
         *           "replicaCount": "3"
         *         }
         *       }
         *     }
         */
        'application/merge-patch+json': components['schemas']['ClusterMergePatch'];
        /**
         * @example {
         *       "patches": {
         *         "podinfo": {
         *           "replicaCount": "3"
         *         }
         *       }
         *     }
         */
        'application/json': components['schemas']['ClusterMergePatch'];
      };
    };
    responses: {
      200: components['responses']['ClusterStored'];
      400: components['responses']['BadBody'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  listPlatformComponents: {
    parameters: {
      query?: {
        /**
         * @description Largest number of records to return. Without it, all records from `offset` on are returned.
         * @example 100
         */
        limit?: components['parameters']['Limit'];
        /** @description Number of records (in `id` order) to skip. */
        offset?: components['parameters']['Offset'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The page of catalog entries. */
      200: {
        headers: {
          'X-Total-Count': components['headers']['XTotalCount'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": "cert-manager",
           *         "component_path": "cert-manager",
           *         "component_version": "v1.16.1",
           *         "oci_url": "oci://quay.io/jetstack/charts/cert-manager",
           *         "oci_tag": "v1.16.1",
           *         "cluster_env_enabled": false,
           *         "depends_on": []
           *       },
           *       {
           *         "id": "podinfo",
           *         "component_path": "apps/podinfo",
           *         "component_version": "6.7.1",
           *         "oci_url": "oci://ghcr.io/stefanprodan/charts/podinfo",
           *         "oci_tag": "6.7.1",
           *         "cluster_env_enabled": true,
           *         "depends_on": [
           *           "traefik"
           *         ]
           *       },
           *       {
           *         "id": "traefik",
           *         "component_path": "traefik",
           *         "component_version": "33.0.0",
           *         "oci_url": "oci://ghcr.io/traefik/helm/traefik",
           *         "oci_tag": "33.0.0",
           *         "cluster_env_enabled": false,
           *         "depends_on": [
           *           "cert-manager"
           *         ]
           *       }
           *     ]
           */
          'application/json': components['schemas']['PlatformComponent'][];
        };
      };
      400: components['responses']['ValidationError'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  createPlatformComponent: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "podinfo",
         *       "component_path": "apps/podinfo",
         *       "component_version": "6.7.1",
         *       "oci_url": "oci://ghcr.io/stefanprodan/charts/podinfo",
         *       "oci_tag": "6.7.1",
         *       "cluster_env_enabled": true,
         *       "depends_on": [
         *         "traefik"
         *       ]
         *     }
         */
        'application/json': components['schemas']['PlatformComponentCreate'];
      };
    };
    responses: {
      /** @description Created; the body is the stored record. */
      201: {
        headers: {
          Location: components['headers']['Location'];
          ETag: components['headers']['RecordETag'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          'Gitops-Dry-Run': components['headers']['GitopsDryRun'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PlatformComponent'];
        };
      };
      400: components['responses']['BadBody'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  getPlatformComponent: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description One or more ETags (or `*`); when one matches the current response, the answer is `304` without a body.
         * @example "5d41402abc4b2a76b9719d911017c592"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The catalog entry. */
      200: {
        headers: {
          ETag: components['headers']['RecordETag'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PlatformComponent'];
        };
      };
      304: components['responses']['RecordNotModified'];
      400: components['responses']['InvalidId'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  replacePlatformComponent: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The ETag of the record as last read. If the record has changed since (the ETag no longer matches), the write is refused with `412 precondition_failed`.
         * @example "0cc175b9c0f1b6a831c399e269772661"
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "component_path": "apps/podinfo",
         *       "component_version": "6.7.2",
         *       "oci_url": "oci://ghcr.io/stefanprodan/charts/podinfo",
         *       "oci_tag": "6.7.2",
         *       "cluster_env_enabled": true,
         *       "depends_on": [
         *         "traefik"
         *       ]
         *     }
         */
        'application/json': components['schemas']['PlatformComponentReplace'];
      };
    };
    responses: {
      200: components['responses']['PlatformComponentStored'];
      400: components['responses']['BadBody'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  deletePlatformComponent: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The ETag of the record as last read. If the record has changed since (the ETag no longer matches), the write is refused with `412 precondition_failed`.
         * @example "0cc175b9c0f1b6a831c399e269772661"
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted (the record's file is removed in one commit with the git backend). */
      204: {
        headers: {
          'X-Config-Revision': components['headers']['XConfigRevision'];
          'Gitops-Dry-Run': components['headers']['GitopsDryRun'];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['InvalidId'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  patchPlatformComponent: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The ETag of the record as last read. If the record has changed since (the ETag no longer matches), the write is refused with `412 precondition_failed`.
         * @example "0cc175b9c0f1b6a831c399e269772661"
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "component_version": "6.7.2",
         *       "oci_tag": "6.7.2"
         *     }
         */
        'application/merge-patch+json': components['schemas']['PlatformComponentMergePatch'];
        /**
         * @example {
         *       "component_version": "6.7.2",
         *       "oci_tag": "6.7.2"
         *     }
         */
        'application/json': components['schemas']['PlatformComponentMergePatch'];
      };
    };
    responses: {
      200: components['responses']['PlatformComponentStored'];
      400: components['responses']['BadBody'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  listNamespaces: {
    parameters: {
      query?: {
        /**
         * @description Largest number of records to return. Without it, all records from `offset` on are returned.
         * @example 100
         */
        limit?: components['parameters']['Limit'];
        /** @description Number of records (in `id` order) to skip. */
        offset?: components['parameters']['Offset'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The page of namespace definitions. */
      200: {
        headers: {
          'X-Total-Count': components['headers']['XTotalCount'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": "monitoring",
           *         "labels": {},
           *         "annotations": {}
           *       },
           *       {
           *         "id": "team-a",
           *         "labels": {
           *           "team": "team-a",
           *           "pod-security.kubernetes.io/enforce": "restricted"
           *         },
           *         "annotations": {
           *           "owner": "team-a@example.com"
           *         }
           *       }
           *     ]
           */
          'application/json': components['schemas']['Namespace'][];
        };
      };
      400: components['responses']['ValidationError'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  createNamespace: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "team-a",
         *       "labels": {
         *         "team": "team-a",
         *         "pod-security.kubernetes.io/enforce": "restricted"
         *       },
         *       "annotations": {
         *         "owner": "team-a@example.com"
         *       }
         *     }
         */
        'application/json': components['schemas']['NamespaceCreate'];
      };
    };
    responses: {
      /** @description Created; the body is the stored record. */
      201: {
        headers: {
          Location: components['headers']['Location'];
          ETag: components['headers']['RecordETag'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          'Gitops-Dry-Run': components['headers']['GitopsDryRun'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Namespace'];
        };
      };
      400: components['responses']['BadBody'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  getNamespace: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description One or more ETags (or `*`); when one matches the current response, the answer is `304` without a body.
         * @example "5d41402abc4b2a76b9719d911017c592"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The namespace definition. */
      200: {
        headers: {
          ETag: components['headers']['RecordETag'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Namespace'];
        };
      };
      304: components['responses']['RecordNotModified'];
      400: components['responses']['InvalidId'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  replaceNamespace: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The ETag of the record as last read. If the record has changed since (the ETag no longer matches), the write is refused with `412 precondition_failed`.
         * @example "0cc175b9c0f1b6a831c399e269772661"
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "labels": {
         *         "team": "team-a"
         *       },
         *       "annotations": {}
         *     }
         */
        'application/json': components['schemas']['NamespaceReplace'];
      };
    };
    responses: {
      200: components['responses']['NamespaceStored'];
      400: components['responses']['BadBody'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  deleteNamespace: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The ETag of the record as last read. If the record has changed since (the ETag no longer matches), the write is refused with `412 precondition_failed`.
         * @example "0cc175b9c0f1b6a831c399e269772661"
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted (the record's file is removed in one commit with the git backend). */
      204: {
        headers: {
          'X-Config-Revision': components['headers']['XConfigRevision'];
          'Gitops-Dry-Run': components['headers']['GitopsDryRun'];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['InvalidId'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  patchNamespace: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The ETag of the record as last read. If the record has changed since (the ETag no longer matches), the write is refused with `412 precondition_failed`.
         * @example "0cc175b9c0f1b6a831c399e269772661"
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "labels": {
         *         "pod-security.kubernetes.io/enforce": "baseline"
         *       }
         *     }
         */
        'application/merge-patch+json': components['schemas']['NamespaceMergePatch'];
        /**
         * @example {
         *       "labels": {
         *         "pod-security.kubernetes.io/enforce": "baseline"
         *       }
         *     }
         */
        'application/json': components['schemas']['NamespaceMergePatch'];
      };
    };
    responses: {
      200: components['responses']['NamespaceStored'];
      400: components['responses']['BadBody'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  listRoleBindings: {
    parameters: {
      query?: {
        /**
         * @description Largest number of records to return. Without it, all records from `offset` on are returned.
         * @example 100
         */
        limit?: components['parameters']['Limit'];
        /** @description Number of records (in `id` order) to skip. */
        offset?: components['parameters']['Offset'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The page of rolebinding definitions. */
      200: {
        headers: {
          'X-Total-Count': components['headers']['XTotalCount'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": "platform-admins",
           *         "role": "cluster-admin",
           *         "subjects": [
           *           {
           *             "kind": "Group",
           *             "name": "platform-admins",
           *             "apiGroup": "rbac.authorization.k8s.io"
           *           }
           *         ]
           *       }
           *     ]
           */
          'application/json': components['schemas']['RoleBinding'][];
        };
      };
      400: components['responses']['ValidationError'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  createRoleBinding: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "platform-admins",
         *       "role": "cluster-admin",
         *       "subjects": [
         *         {
         *           "kind": "Group",
         *           "name": "platform-admins",
         *           "apiGroup": "rbac.authorization.k8s.io"
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['RoleBindingCreate'];
      };
    };
    responses: {
      /** @description Created; the body is the stored record. */
      201: {
        headers: {
          Location: components['headers']['Location'];
          ETag: components['headers']['RecordETag'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          'Gitops-Dry-Run': components['headers']['GitopsDryRun'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RoleBinding'];
        };
      };
      400: components['responses']['BadBody'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  getRoleBinding: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description One or more ETags (or `*`); when one matches the current response, the answer is `304` without a body.
         * @example "5d41402abc4b2a76b9719d911017c592"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The rolebinding definition. */
      200: {
        headers: {
          ETag: components['headers']['RecordETag'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RoleBinding'];
        };
      };
      304: components['responses']['RecordNotModified'];
      400: components['responses']['InvalidId'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  replaceRoleBinding: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The ETag of the record as last read. If the record has changed since (the ETag no longer matches), the write is refused with `412 precondition_failed`.
         * @example "0cc175b9c0f1b6a831c399e269772661"
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "role": "cluster-admin",
         *       "subjects": [
         *         {
         *           "kind": "Group",
         *           "name": "platform-admins",
         *           "apiGroup": "rbac.authorization.k8s.io"
         *         },
         *         {
         *           "kind": "User",
         *           "name": "alice@example.com",
         *           "apiGroup": "rbac.authorization.k8s.io"
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['RoleBindingReplace'];
      };
    };
    responses: {
      200: components['responses']['RoleBindingStored'];
      400: components['responses']['BadBody'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  deleteRoleBinding: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The ETag of the record as last read. If the record has changed since (the ETag no longer matches), the write is refused with `412 precondition_failed`.
         * @example "0cc175b9c0f1b6a831c399e269772661"
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted (the record's file is removed in one commit with the git backend). */
      204: {
        headers: {
          'X-Config-Revision': components['headers']['XConfigRevision'];
          'Gitops-Dry-Run': components['headers']['GitopsDryRun'];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['InvalidId'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  patchRoleBinding: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The ETag of the record as last read. If the record has changed since (the ETag no longer matches), the write is refused with `412 precondition_failed`.
         * @example "0cc175b9c0f1b6a831c399e269772661"
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "role": "view"
         *     }
         */
        'application/merge-patch+json': components['schemas']['RoleBindingMergePatch'];
        /**
         * @example {
         *       "role": "view"
         *     }
         */
        'application/json': components['schemas']['RoleBindingMergePatch'];
      };
    };
    responses: {
      200: components['responses']['RoleBindingStored'];
      400: components['responses']['BadBody'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  listRollouts: {
    parameters: {
      query?: {
        /**
         * @description Largest number of records to return. Without it, all records from `offset` on are returned.
         * @example 100
         */
        limit?: components['parameters']['Limit'];
        /** @description Number of records (in `id` order) to skip. */
        offset?: components['parameters']['Offset'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The page of rollouts. */
      200: {
        headers: {
          'X-Total-Count': components['headers']['XTotalCount'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": "podinfo-6-7-2",
           *         "component": "podinfo",
           *         "set": {
           *           "component_version": "6.7.2",
           *           "oci_tag": "6.7.2"
           *         },
           *         "waves": [
           *           {
           *             "name": "canary",
           *             "clusters": [
           *               "demo-cluster-01"
           *             ],
           *             "environments": [],
           *             "batch": null,
           *             "soak": "0s",
           *             "approval": false
           *           },
           *           {
           *             "name": "prod",
           *             "clusters": [],
           *             "environments": [
           *               "prod"
           *             ],
           *             "batch": "25%",
           *             "soak": "30m",
           *             "approval": true
           *           }
           *         ],
           *         "failure_budget": 0,
           *         "progress_deadline": "1h",
           *         "require_reports": false,
           *         "released": 1,
           *         "paused": false,
           *         "approved": []
           *       }
           *     ]
           */
          'application/json': components['schemas']['Rollout'][];
        };
      };
      400: components['responses']['ValidationError'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  createRollout: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "podinfo-6-7-2",
         *       "component": "podinfo",
         *       "set": {
         *         "component_version": "6.7.2",
         *         "oci_tag": "6.7.2"
         *       },
         *       "waves": [
         *         {
         *           "name": "canary",
         *           "clusters": [
         *             "demo-cluster-01"
         *           ]
         *         },
         *         {
         *           "name": "prod",
         *           "environments": [
         *             "prod"
         *           ],
         *           "batch": "25%",
         *           "soak": "30m",
         *           "approval": true
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['RolloutCreate'];
      };
    };
    responses: {
      /** @description Created; the body is the stored record, every default filled in. */
      201: {
        headers: {
          Location: components['headers']['Location'];
          ETag: components['headers']['RecordETag'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          'Gitops-Dry-Run': components['headers']['GitopsDryRun'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Rollout'];
        };
      };
      400: components['responses']['BadBody'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  getRollout: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description One or more ETags (or `*`); when one matches the current response, the answer is `304` without a body.
         * @example "5d41402abc4b2a76b9719d911017c592"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The rollout. */
      200: {
        headers: {
          ETag: components['headers']['RecordETag'];
          'X-Config-Revision': components['headers']['XConfigRevision'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Rollout'];
        };
      };
      304: components['responses']['RecordNotModified'];
      400: components['responses']['InvalidId'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  replaceRollout: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The ETag of the record as last read. If the record has changed since (the ETag no longer matches), the write is refused with `412 precondition_failed`.
         * @example "0cc175b9c0f1b6a831c399e269772661"
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "component": "podinfo",
         *       "set": {
         *         "oci_tag": "6.7.3"
         *       },
         *       "waves": [
         *         {
         *           "name": "everyone",
         *           "environments": [
         *             "dev",
         *             "qa",
         *             "uat",
         *             "prod"
         *           ],
         *           "batch": 10
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['RolloutReplace'];
      };
    };
    responses: {
      200: components['responses']['RolloutStored'];
      400: components['responses']['BadBody'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  deleteRollout: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The ETag of the record as last read. If the record has changed since (the ETag no longer matches), the write is refused with `412 precondition_failed`.
         * @example "0cc175b9c0f1b6a831c399e269772661"
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted (the record's file is removed in one commit with the git backend). */
      204: {
        headers: {
          'X-Config-Revision': components['headers']['XConfigRevision'];
          'Gitops-Dry-Run': components['headers']['GitopsDryRun'];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['InvalidId'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
  patchRollout: {
    parameters: {
      query?: {
        /**
         * @description `All`: answer exactly as the write would be answered — status, headers, body — and
         *     store nothing (no commit, no transaction, no audit line; the revision served stays).
         *     The answer carries `Gitops-Dry-Run: true`; where the real answer names the revision
         *     the write made, a dry run names the one served (`X-Config-Revision`), or `null` (a
         *     change set's `revision`). Any other value is `400 validation_error`, as in
         *     Kubernetes. A write takes no other query parameter: one it does not take (a
         *     misspelling such as `dryrun` or `dryRun[]`), or `dryRun` given twice, is
         *     `400 bad_request` naming it, and nothing is stored.
         * @example All
         */
        dryRun?: components['parameters']['DryRun'];
      };
      header?: {
        /**
         * @description The ETag of the record as last read. If the record has changed since (the ETag no longer matches), the write is refused with `412 precondition_failed`.
         * @example "0cc175b9c0f1b6a831c399e269772661"
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /**
         * @description The commit message of this write (its Git commit's subject and body; the `message`
         *     of its SQLite audit row). A header carries ASCII only: percent-encode it as UTF-8
         *     (`%0A` a newline, `%25` a `%`, `%C3%A9` an `é`); it is decoded before use. Control
         *     characters other than newline and tab (C0, DEL, C1), bidirectional controls
         *     (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), line and paragraph separators
         *     (U+2028, U+2029), raw non-ASCII bytes, a malformed escape and the header given more
         *     than once are a `400 validation_error`. Trailing blanks and blank lines at either end are
         *     dropped, as `git commit` drops them. Without it (or empty), the message is made from
         *     the change: `<collection>: <create|update|delete> <id>` and the changed fields.
         *     Decoded, it holds at most 16,384 bytes of UTF-8 (`400 validation_error` above);
         *     Node's limit of 16 KiB on a request's headers (`431`) comes first unless the server
         *     runs with a larger `--max-http-header-size`.
         * @example Scale%20podinfo%20on%20demo-cluster-01%0A%0AAsked%20for%20in%20TICKET-42.
         */
        'Gitops-Commit-Message'?: components['parameters']['CommitMessage'];
      };
      path: {
        /**
         * @description Id of the record.
         * @example demo-cluster-01
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "released": 2
         *     }
         */
        'application/merge-patch+json': components['schemas']['RolloutMergePatch'];
        /**
         * @example {
         *       "released": 2
         *     }
         */
        'application/json': components['schemas']['RolloutMergePatch'];
      };
    };
    responses: {
      200: components['responses']['RolloutStored'];
      400: components['responses']['BadBody'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      500: components['responses']['InternalError'];
      503: components['responses']['Unavailable'];
    };
  };
}
