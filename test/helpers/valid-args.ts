/** One valid call of every tool (arguments written out from the spec), for tests that change one argument at a time. */
export const VALID: Record<string, Record<string, unknown>> = {
  streaming_list_config_groups: { kafkaVersionCode: 3050100 },
  streaming_list_server_images: {},
  translation_translate_text: { source: 'ko', target: 'en', text: '안녕하세요' },
  dataflow_update_job_execution_options: {
    jobId: 'job-1',
    jobCondition: { nrn: 'nrn:job:1', scriptPath: 'obs://b/s/', logPath: 'obs://b/l/' },
  },
  maps_reverse_geocode: { coords: '127.1054,37.3595' },
  apigateway_create_method_response: {
    productId: 'p1',
    apiId: 'a1',
    resourceId: 'r1',
    methodName: 'GET',
    statusCode: 200,
  },
  apigateway_list_products: {},
  datacatalog_run_scanner: { catalogId: 1, scannerId: 2 },
  bigdata_check_app_name: { accountId: '7N42dgm5tFLK9N8MT7fHC7', name: 'my-app' },
  recommendation_get_default_schema: { datasetType: 'user' },
  recommendation_delete_service: { serviceId: 'svc-1', confirm: 'svc-1' },
  textgen_create_completion: { text: 'Once upon a time' },
  search_update_schema: { name: 'shop', document: { primarySectionName: 'body', sections: [], indexes: [] } },
  search_list_tokenizer_languages: {},
  kms_migrate_key: { keyTag: 'k1', targetRegion: 'KR', confirm: 'k1' },
};
