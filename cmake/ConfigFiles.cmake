# by_config_file(<config-name> <out-var>): the YAML file of a config by name, configs/<name>.yaml
# (shipped) or testbenches/configs/<name>.yaml (configs that exist only for tests). Every
# per-config build function takes a name and finds its file here.
function(by_config_file cfg out)
  set(file ${PROJECT_SOURCE_DIR}/configs/${cfg}.yaml)
  if(NOT EXISTS ${file})
    set(file ${PROJECT_SOURCE_DIR}/testbenches/configs/${cfg}.yaml)
  endif()
  if(NOT EXISTS ${file})
    message(FATAL_ERROR "config '${cfg}': neither configs/${cfg}.yaml nor "
                        "testbenches/configs/${cfg}.yaml exists")
  endif()
  set(${out} ${file} PARENT_SCOPE)
endfunction()
